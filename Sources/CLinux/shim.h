#ifndef DAYDREAM_CLINUX_SHIM_H
#define DAYDREAM_CLINUX_SHIM_H
// Linux interfaces Glibc's Swift module leaves out: epoll, timerfd, signalfd, eventfd, and the
// socket error queue's extended errors (IP_RECVERR).
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <signal.h>
#include <unistd.h>
#include <linux/errqueue.h>
#endif
