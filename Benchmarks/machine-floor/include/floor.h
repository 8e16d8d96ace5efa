#ifndef DAYDREAM_MACHINE_FLOOR_H
#define DAYDREAM_MACHINE_FLOOR_H

#include <stddef.h>

/// Reads every descriptor with epoll until all have closed; one 48-byte write to stdout per packet.
int run_loop_floor(const int *descriptors, int count);

/// The fd-to-write path with nothing but epoll_wait, read and write; prints JSON figures.
int run_latency_floor(size_t count, long long spacing_ns);

#endif
