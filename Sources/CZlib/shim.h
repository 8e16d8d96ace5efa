#ifndef DAYDREAM_CZLIB_SHIM_H
#define DAYDREAM_CZLIB_SHIM_H
// zlib, for the CRC32 that every DSU message carries.
#include <zlib.h>
#endif
