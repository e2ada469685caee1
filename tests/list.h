/* Every test, one T(name) line each, grouped by area. The runner includes this
 * file twice: once to declare the functions, once to build its table. */
#include "list_core.h"
#include "list_gemath.h"
#include "list_bad.h"
#include "list_patch.h"
#include "list_light.h"
#include "list_texture.h"
#include "list_sampler.h"
#include "list_pixel.h"
#include "list_quirks.h"
#include "list_raster.h"
#include "list_fuzzcmd.h"
#include "list_vprobe.h"
