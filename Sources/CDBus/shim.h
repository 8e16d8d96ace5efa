#ifndef DAYDREAM_CDBUS_SHIM_H
#define DAYDREAM_CDBUS_SHIM_H
// libdbus, plus static inline helpers for what Swift cannot import (macros).
#include <dbus/dbus.h>
#endif
