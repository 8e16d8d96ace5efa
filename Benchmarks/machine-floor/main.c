// daydream-machine-floor: what this machine charges for the daemon's kernel-facing work, with no
// Swift and no bridge code. `make bench` prints it under the daemon's figures, so a target that
// sits below it is seen to be out of reach of any program that sleeps in epoll_wait here.
//
//   daydream-machine-floor --loop-floor FD...
//       epoll over each socket FD (level-triggered, non-blocking); per packet one read and one
//       48-byte write to standard output. daemon_load.py's `floor` feed runs it in place of the daemon.
//   daydream-machine-floor --latency COUNT SPACING_NS
//       a sender thread writes COUNT 20-byte packets into a socketpair SPACING_NS apart; the main
//       thread, asleep in epoll_wait, reads each and writes 48 bytes into a drained pipe. Prints the
//       microseconds from before the send to after the write as one JSON object.
#include "floor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void) {
    fputs("Usage: daydream-machine-floor --loop-floor FD... | --latency COUNT SPACING_NS\n", stderr);
    return 64;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "--loop-floor") == 0) {
        int count = argc - 2;
        int *descriptors = calloc((size_t)count, sizeof *descriptors);
        if (descriptors == NULL) return 1;
        for (int i = 0; i < count; i++) {
            char *end = NULL;
            long value = strtol(argv[i + 2], &end, 10);
            if (end == argv[i + 2] || *end != '\0' || value < 0) return usage();
            descriptors[i] = (int)value;
        }
        int status = run_loop_floor(descriptors, count);
        free(descriptors);
        return status;
    }
    if (argc == 4 && strcmp(argv[1], "--latency") == 0) {
        long count = strtol(argv[2], NULL, 10);
        long long spacing = strtoll(argv[3], NULL, 10);
        if (count <= 0 || spacing <= 0) return usage();
        return run_latency_floor((size_t)count, spacing);
    }
    return usage();
}
