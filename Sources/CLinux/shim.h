#ifndef DAYDREAM_CLINUX_SHIM_H
#define DAYDREAM_CLINUX_SHIM_H
// Linux event descriptors Glibc's Swift module leaves out: epoll, timerfd, signalfd, eventfd.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <signal.h>
#include <unistd.h>
#endif
