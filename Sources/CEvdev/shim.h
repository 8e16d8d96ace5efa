#ifndef DAYDREAM_CEVDEV_SHIM_H
#define DAYDREAM_CEVDEV_SHIM_H
// libevdev and libevdev-uinput, plus the kernel's event codes.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/input-event-codes.h>
#endif
