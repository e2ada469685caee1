/* Flow control of the command processor, with lists the tests build:
 * JUMP, BJUMP, CALL/RET and their depth, END, FINISH, SIGNAL variants, BASE,
 * OFFSETADDR, ORIGIN, stalls and the step budget. Markers are PRIM kicks
 * with their count field set to a number (see gehelp.h). */
#include <string.h>

#include "gehelp.h"
#include "test.h"

/* 24-bit data of a branch to word i of the list (BASE 0x08 supplies the top). */
static uint32_t to(size_t i) { return gh_addr(i) & 0xFFFFFF; }

static void start(struct dl *l)
{
    dl_init(l);
    dl_cmd(l, GE_BASE, 0x080000); /* word 0: high address bits 0x08 */
}

TEST(flow_jump_skips)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_PRIM, 1);        /* 1 */
    dl_cmd(&l, GE_JUMP, to(4));    /* 2 */
    dl_cmd(&l, GE_PRIM, 2);        /* 3: skipped */
    dl_cmd(&l, GE_PRIM, 3);        /* 4 */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "1,3");
    CHECK_EQ_I(h.r.ge.list.state, GE_LIST_DONE);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_call_ret_two_levels)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_CALL, to(5));    /* 1 */
    dl_cmd(&l, GE_PRIM, 9);        /* 2 */
    dl_finish(&l);                 /* 3, 4 */
    dl_cmd(&l, GE_PRIM, 1);        /* 5: sub A */
    dl_cmd(&l, GE_CALL, to(9));    /* 6 */
    dl_cmd(&l, GE_PRIM, 3);        /* 7 */
    dl_cmd(&l, GE_RET, 0);         /* 8 */
    dl_cmd(&l, GE_PRIM, 2);        /* 9: sub B */
    dl_cmd(&l, GE_RET, 0);         /* 10 */
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "1,2,3,9");
    CHECK_EQ_I(h.r.ge.list.depth, 0);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_call_depth_limit)
{
    /* The GE has two return registers: a third nested CALL is an error that
     * names the problem, and nothing after it runs. */
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_CALL, to(4));    /* 1 */
    dl_finish(&l);                 /* 2, 3 */
    dl_cmd(&l, GE_CALL, to(6));    /* 4 */
    dl_cmd(&l, GE_RET, 0);         /* 5 */
    dl_cmd(&l, GE_CALL, to(8));    /* 6: third level */
    dl_cmd(&l, GE_RET, 0);         /* 7 */
    dl_cmd(&l, GE_PRIM, 5);        /* 8 */
    dl_cmd(&l, GE_RET, 0);         /* 9 */
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_ELIST_ERROR);
    CHECK_MSG(strstr(d.msg, "return registers") != NULL, "message: %s", d.msg);
    CHECK_EQ_S(gh_marks(&h), "");
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_ret_restores_offset_not_base)
{
    /* CALL saves the OFFSETADDR offset (RET restores it) but not BASE. */
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_OFFSETADDR, 0x000010);  /* 1: offset 0x1000 */
    dl_cmd(&l, GE_CALL, to(6) - 0x1000);  /* 2: relative to the offset */
    dl_cmd(&l, GE_VADDR, 0x000100);       /* 3 */
    dl_finish(&l);                        /* 4, 5 */
    dl_cmd(&l, GE_OFFSETADDR, 0x000020);  /* 6: offset 0x2000 inside */
    dl_cmd(&l, GE_BASE, 0x090000);        /* 7 */
    dl_cmd(&l, GE_RET, 0);                /* 8: returns to the absolute address after the CALL */
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.offset, 0x1000);
    CHECK_EQ_U(h.r.ge.st.vaddr, 0x09000100u + 0x1000);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_base_offset_origin_addressing)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x0A0000);        /* 0 */
    dl_cmd(&l, GE_VADDR, 0x123456);       /* 1: 0x0A123456 */
    dl_cmd(&l, GE_IADDR, 0xFFFFFF);       /* 2: 0x0AFFFFFF */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.vaddr, 0x0A123456);
    CHECK_EQ_U(h.r.ge.st.iaddr, 0x0AFFFFFF);
    dl_free(&l);

    /* ORIGIN makes the offset the address of the ORIGIN word itself. */
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0);               /* 0 */
    dl_cmd(&l, GE_NOP, 0);                /* 1 */
    dl_cmd(&l, GE_ORIGIN, 0);             /* 2 */
    dl_cmd(&l, GE_VADDR, 0x40);           /* 3 */
    dl_cmd(&l, GE_JUMP, 7 * 4 - 2 * 4);   /* 4: to word 7, relative to word 2 */
    dl_cmd(&l, GE_PRIM, 1);               /* 5: skipped */
    dl_cmd(&l, GE_PRIM, 2);               /* 6: skipped */
    dl_cmd(&l, GE_PRIM, 3);               /* 7 */
    dl_cmd(&l, GE_OFFSETADDR, 0x123456);  /* 8: offset = data << 8 */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.vaddr, gh_addr(2) + 0x40 + 3 * 3); /* PRIM 3 then used three 3-byte vertices */
    CHECK_EQ_S(gh_marks(&h), "3");
    CHECK_EQ_U(h.r.ge.st.offset, 0x12345600u & 0x0FFFFFFF);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_bjump_follows_bbox)
{
    for (int answer = 0; answer <= 1; answer++) {
        struct gehelp h;
        struct dl l;
        struct gt_diag d = {0};
        gh_init(&h);
        h.bbox_answer = answer;
        start(&l);
        dl_cmd(&l, GE_BBOX, 4);       /* 1 */
        dl_cmd(&l, GE_BJUMP, to(4));  /* 2: jumps when the box is not visible */
        dl_cmd(&l, GE_PRIM, 1);       /* 3 */
        dl_cmd(&l, GE_PRIM, 2);       /* 4 */
        dl_finish(&l);
        CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
        CHECK_EQ_S(gh_marks(&h), answer ? "1,2" : "2");
        CHECK_EQ_U(h.r.ge.stats.bboxes, 1);
        dl_free(&l);
        gh_free(&h);
    }
}

TEST(flow_bbox_count_zero_and_start)
{
    /* A list starts with the BBOX result false, and BBOX with count 0
     * answers "not visible" without asking the pipeline. */
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_BJUMP, to(3));  /* 1: no BBOX yet: jumps */
    dl_cmd(&l, GE_PRIM, 1);       /* 2 */
    dl_cmd(&l, GE_BBOX, 0);       /* 3 */
    dl_cmd(&l, GE_BJUMP, to(6));  /* 4: jumps */
    dl_cmd(&l, GE_PRIM, 2);       /* 5 */
    dl_cmd(&l, GE_PRIM, 3);       /* 6 */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "3");
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_end_needs_finish)
{
    /* END after anything but FINISH or SIGNAL does not end the list. */
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_PRIM, 1);
    dl_cmd(&l, GE_END, 0);
    dl_cmd(&l, GE_PRIM, 2);
    dl_cmd(&l, GE_FINISH, 0);
    dl_cmd(&l, GE_PRIM, 3);  /* FINISH alone ends nothing either */
    dl_finish(&l);
    dl_cmd(&l, GE_PRIM, 4);  /* after FINISH+END: never runs */
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "1,2,3");
    CHECK_EQ_I(h.r.ge.list.state, GE_LIST_DONE);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_signal_jump_call_ret)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    uint32_t t = gh_addr(5);
    dl_cmd(&l, GE_SIGNAL, 0x10 << 16 | t >> 16);   /* 1: absolute jump, high half */
    dl_cmd(&l, GE_END, t & 0xFFFF);                /* 2: low half */
    dl_cmd(&l, GE_PRIM, 1);                        /* 3: skipped */
    dl_cmd(&l, GE_PRIM, 2);                        /* 4: skipped */
    t = gh_addr(13);
    dl_cmd(&l, GE_SIGNAL, 0x11 << 16 | t >> 16);   /* 5: call word 13 */
    dl_cmd(&l, GE_END, t & 0xFFFF);                /* 6 */
    dl_cmd(&l, GE_PRIM, 4);                        /* 7: after the return */
    dl_cmd(&l, GE_SIGNAL, 0x13 << 16);             /* 8: relative jump +12 bytes from the SIGNAL */
    dl_cmd(&l, GE_END, 12);                        /* 9 */
    dl_cmd(&l, GE_PRIM, 5);                        /* 10: skipped */
    dl_finish(&l);                                 /* 11 FINISH (the RJUMP target), 12 END */
    dl_cmd(&l, GE_PRIM, 3);                        /* 13: the called routine */
    dl_cmd(&l, GE_SIGNAL, 0x12 << 16);             /* 14: return after the calling END */
    dl_cmd(&l, GE_END, 0);                         /* 15 */
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "3,4");
    CHECK_EQ_I(h.r.ge.list.state, GE_LIST_DONE);
    CHECK_EQ_U(h.r.ge.stats.signals, 4);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_signal_pause_and_sync)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_SIGNAL, 0x08 << 16);  /* sync: the next FINISH+END does not end */
    dl_cmd(&l, GE_END, 0);
    dl_finish(&l);
    dl_cmd(&l, GE_PRIM, 1);
    dl_cmd(&l, GE_SIGNAL, 0x03 << 16);  /* pause at the next FINISH+END */
    dl_cmd(&l, GE_END, 0);
    dl_finish(&l);
    dl_cmd(&l, GE_PRIM, 2);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "1");
    CHECK_EQ_I(h.r.ge.list.state, GE_LIST_PAUSED);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_stall_and_resume)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    start(&l);
    dl_cmd(&l, GE_PRIM, 1);
    dl_cmd(&l, GE_PRIM, 2);
    dl_cmd(&l, GE_PRIM, 3);
    dl_finish(&l);
    for (size_t i = 0; i < l.n; i++) mem_write32(&h.r.mem, gh_addr(i), l.w[i]);
    ge_list_start(&h.r.ge, LIST_ADDR, gh_addr(2));
    CHECK_EQ_I(ge_run(&h.r.ge, &d), GT_OK);
    CHECK_EQ_I(h.r.ge.list.state, GE_LIST_STALLED);
    CHECK_EQ_S(gh_marks(&h), "1");
    ge_list_set_stall(&h.r.ge, 0);
    CHECK_EQ_I(ge_run(&h.r.ge, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "1,2,3");
    CHECK_EQ_I(h.r.ge.list.state, GE_LIST_DONE);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_runaway_list_stopped)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    h.r.ge.step_budget = 5000;
    start(&l);
    dl_cmd(&l, GE_PRIM, 1);
    dl_cmd(&l, GE_JUMP, to(1));
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_ESTEP_LIMIT);
    CHECK_MSG(strstr(d.msg, "runaway") != NULL, "message: %s", d.msg);
    /* Stopped at the budget: 5000 steps, the last PRIM's one vertex of work
     * possibly past it. */
    CHECK_MSG(h.r.ge.stats.steps >= 5000 && h.r.ge.stats.steps <= 5001, "steps %llu",
              (unsigned long long)h.r.ge.stats.steps);
    dl_free(&l);
    gh_free(&h);
}

TEST(flow_bad_addresses)
{
    struct gehelp h;
    struct dl l;
    struct gt_diag d = {0};
    gh_init(&h);
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x0C0000);
    dl_cmd(&l, GE_JUMP, 0);  /* 0x0C000000: no memory there */
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_ELIST_ERROR);
    CHECK_MSG(strstr(d.msg, "JUMP") && strstr(d.msg, "0x0c000000"), "message: %s", d.msg);
    dl_free(&l);
    /* A list that runs off the end of RAM stops with an error, not a crash. */
    mem_write32(&h.r.mem, 0x0BFFFFFC, (uint32_t)GE_NOP << 24);
    ge_list_start(&h.r.ge, 0x0BFFFFFC, 0);
    CHECK_EQ_I(ge_run(&h.r.ge, &d), GT_ELIST_ERROR);
    CHECK_MSG(strstr(d.msg, "outside PSP memory") != NULL, "message: %s", d.msg);
    gh_free(&h);
}
