/* Every limit and fixed size of getile, in one place, with a comment each. */
#ifndef GETILE_GE_LIMITS_H
#define GETILE_GE_LIMITS_H

/* --- PSP memory as the GE sees it (PPSSPP's memory map; GE-HARDWARE.md §6) --- */
#define GT_ADDR_MASK 0x0FFFFFFFu     /* the GE forms 28-bit addresses; higher bits (cached/uncached/kernel) are dropped */
#define GT_SCRATCH_BASE 0x00010000u  /* scratchpad RAM */
#define GT_SCRATCH_SIZE 0x00004000u  /* 16 KiB */
#define GT_VRAM_BASE 0x04000000u     /* eDRAM */
#define GT_VRAM_SIZE 0x00200000u     /* 2 MiB */
#define GT_VRAM_SPAN 0x01000000u     /* 0x04000000-0x04FFFFFF: four 2 MiB views, repeated every 8 MiB */
#define GT_RAM_BASE 0x08000000u      /* main RAM */
#define GT_RAM_SIZE 0x04000000u      /* 64 MiB (PSP-2000 and later; the 32 MiB of a PSP-1000 is a subset) */

/* --- The command processor --- */
#define GT_CALL_DEPTH 2              /* the GE has two return-address registers (RADR1/RADR2) */
#define GT_DEFAULT_STEP_BUDGET 200000000u /* display-list words one run may execute before it is stopped */
#define GT_CLUT_BYTES 1024           /* the GE's CLUT memory: 256 entries of 32 bits */
#define GT_BONE_MATRIX_WORDS 96      /* 8 bone matrices of 12 values */

/* --- Frame dumps (.ppdmp, also inside .zip) --- */
#define GT_DUMP_MAX_COMMANDS (8u << 20)        /* records in one dump */
#define GT_DUMP_MAX_PUSHBUF (512u << 20)       /* decompressed data block of a dump */
#define GT_DUMP_MAX_FILE (1024u << 20)         /* a dump or zip file read from disk or the network */
#define GT_REPLAY_LIST_BASE 0x08800000u        /* where replay assembles its display list (user RAM start) */
#define GT_REPLAY_LIST_SIZE 0x00040000u        /* 256 KiB list buffer; restarted, never wrapped, when full */
#define GT_REPLAY_ARENA_BASE 0x08840000u       /* where replay places recorded vertices, indices, textures */
#define GT_REPLAY_ARENA_END 0x0C000000u        /* end of RAM */

/* --- Binning and rasterization (binning/, pipeline/raster.c) --- */
#define GT_SCREEN_MAX 1024           /* drawing coordinates are 10 bits (scissor, REGION2) */
#define GT_TILE_SIZE_DEFAULT 64      /* tile edge in pixels; a power of two */
#define GT_TILE_SIZE_MIN 16          /* smallest tile edge accepted */
#define GT_TILE_SIZE_MAX 256         /* largest tile edge accepted */
#define GT_BIN_BLOCK_CMDS 128        /* commands per bin block (bins grow in blocks, never per primitive) */
#define GT_SCENE_CHUNK (1u << 20)    /* bytes per scene arena chunk */
#define GT_SCENE_MAX_BYTES (256u << 20) /* a scene that grows past this is flushed (reason "memory") */
#define GT_SCENE_FLUSH_PRIMS 1024    /* a scene with this many primitives is handed to the workers (reason "size"),
                                        so rasterization overlaps binning */
#define GT_MAX_THREADS 64            /* worker threads of one render context */
#define GT_SHADOW_MAX_BYTES (4u << 20) /* largest self-texture copied for one draw */
#define GT_TEXCACHE_BYTES 8192       /* the GE's texture cache (GE-HARDWARE.md §6) */
#define GT_TEXCOPY_MAX_BYTES (64u << 10) /* larger textures are read from memory, not from a per-draw copy */

/* --- Output --- */
#define GT_DISPLAY_WIDTH 480         /* the PSP's visible display */
#define GT_DISPLAY_HEIGHT 272
#define GT_IMAGE_STRIDE 512          /* output images: 512 wide, like PPSSPP's frametest references */
#define GT_MAX_PNG_BYTES (64u << 20) /* a PNG read for comparison */

/* --- Protocol (proto/, proto/PROTOCOL.md) --- */
#define GT_PROTO_MAX_MESSAGE (256u << 20) /* default cap on one msgpack message; a server may choose another */
#define GT_PROTO_MAX_OBJECTS (1u << 18)   /* msgpack values (keys and elements included) in one message: msgpack-c
                                             allocates 24 bytes per value when a container's header arrives */
#define GT_PROTO_MAX_DEPTH 16             /* nesting of arrays and maps in one message (requests need 3) */
#define GT_PROTO_MAX_BLOCKS 1024          /* "memory" blocks of a render_list request */
#define GT_PROTO_MAX_REGS 4096            /* initial register words ("regs") of a render_list request */
#define GT_PROTO_MAX_VRAM_RANGES 64       /* "vram_ranges" of a request, "vram" blocks of a response */
#define GT_PROTO_MAX_OUTPUTS 8            /* entries of "outputs" (four kinds; repeats allowed) */
#define GT_PROTO_MAX_TOKEN 1024           /* bytes of a request's "token" */
#define GT_PROTO_MAX_STRIDE 0x7FFu        /* a display stride in pixels: 11 bits, as in DISPLAY records (replay.c) */

/* --- Daemon (server/, getiled) --- */
#define GT_SRV_MAX_LISTEN 8               /* --listen addresses of one daemon */
#define GT_SRV_MAX_INFLIGHT 8             /* requests of one connection queued or rendering; at the cap reading stops */
#define GT_SRV_DEFAULT_MAX_JOBS 64        /* --max-jobs default: jobs queued or rendering, all connections; past it "busy" */
#define GT_SRV_MAX_JOBS 65536             /* largest --max-jobs */
#define GT_SRV_MAX_UNSENT (64u << 20)     /* reply bytes queued on one connection; above it reading stops */
#define GT_SRV_DEFAULT_REQUEST_MB 256     /* --max-request-mb default (GT_PROTO_MAX_MESSAGE) */
#define GT_SRV_MAX_REQUEST_MB 1024        /* largest --max-request-mb (GT_DUMP_MAX_FILE) */
#define GT_SRV_IDLE_TIMEOUT_S 300         /* --idle-timeout default: no request and nothing in flight this long: close */
#define GT_SRV_WRITE_TIMEOUT_S 60         /* a reply write that makes no progress this long (a client that never reads): close */
#define GT_SRV_LINGER_MS 2000             /* after the last reply of a closing connection and a FIN, unread input is
                                             discarded this long (closing with unread input would reset the replies) */
#define GT_SRV_SWEEP_MS 250               /* period of the timeout sweep over all connections */
#define GT_SRV_BACKLOG 511                /* listen() backlog */
#define GT_SRV_READ_CHUNK (64u << 10)     /* bytes reserved in the unpacker per read */

#endif
