#include "ctoml.h"
#include <toml++/toml.h>

extern "C" int ctoml_version(void) {
    return TOML_LIB_MAJOR * 10000 + TOML_LIB_MINOR * 100 + TOML_LIB_PATCH;
}
