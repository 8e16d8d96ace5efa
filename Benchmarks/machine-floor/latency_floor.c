#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/// CLOCK_MONOTONIC in nanoseconds.
static int64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

struct sender {
    int socket;
    size_t count;
    long long spacing_ns;
    int64_t *sent_at;
};

static void *send_packets(void *argument) {
    struct sender *sender = argument;
    unsigned char packet[20] = {0};
    int64_t next = monotonic_ns();
    for (size_t index = 0; index < sender->count; index++) {
        next += sender->spacing_ns;
        struct timespec deadline = {.tv_sec = next / 1000000000, .tv_nsec = next % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
        }
        packet[0] = (unsigned char)index;
        sender->sent_at[index] = monotonic_ns();
        if (write(sender->socket, packet, sizeof packet) < 0) perror("write");
    }
    return NULL;
}

static void *drain(void *argument) {
    int fd = *(int *)argument;
    unsigned char buffer[65536];
    while (read(fd, buffer, sizeof buffer) > 0) {
    }
    return NULL;
}

static int compare(const void *left, const void *right) {
    int64_t a = *(const int64_t *)left, b = *(const int64_t *)right;
    return (a > b) - (a < b);
}

/// Nearest rank, as daydream-bench's `Distribution` takes it.
static double rank(const int64_t *sorted, size_t count, double fraction) {
    double wanted = fraction * (double)count;
    size_t index = (size_t)wanted;
    if ((double)index < wanted) index++;
    if (index > 0) index--;
    if (index >= count) index = count - 1;
    return (double)sorted[index] / 1000.0;
}

int run_latency_floor(size_t count, long long spacing_ns) {
    int pair[2], sink[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0 || pipe(sink) != 0) {
        perror("socketpair/pipe");
        return 1;
    }
    fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK);
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = pair[1]};
    if (epoll < 0 || epoll_ctl(epoll, EPOLL_CTL_ADD, pair[1], &event) != 0) {
        perror("epoll");
        return 1;
    }
    int64_t *sent_at = calloc(count, sizeof *sent_at);
    int64_t *written_at = calloc(count, sizeof *written_at);
    if (sent_at == NULL || written_at == NULL) return 1;

    struct sender sender = {.socket = pair[0], .count = count, .spacing_ns = spacing_ns, .sent_at = sent_at};
    pthread_t sender_thread, drain_thread;
    pthread_create(&drain_thread, NULL, drain, &sink[0]);
    pthread_create(&sender_thread, NULL, send_packets, &sender);

    unsigned char packet[512];
    unsigned char frame[48] = {0};
    size_t received = 0;
    struct epoll_event ready[16];
    while (received < count) {
        int n = epoll_wait(epoll, ready, 16, 10000);
        if (n == 0) break;
        for (int i = 0; i < n && received < count; i++) {
            while (received < count && read(pair[1], packet, sizeof packet) > 0) {
                if (write(sink[1], frame, sizeof frame) < 0) perror("write");
                written_at[received++] = monotonic_ns();
            }
        }
    }
    pthread_join(sender_thread, NULL);
    close(sink[1]);
    pthread_join(drain_thread, NULL);
    if (received < count) {
        fprintf(stderr, "daydream-machine-floor: only %zu of %zu packets arrived\n", received, count);
        return 1;
    }
    for (size_t index = 0; index < count; index++) written_at[index] -= sent_at[index];
    qsort(written_at, count, sizeof *written_at, compare);
    printf("{\"packets\": %zu, \"p50_us\": %.1f, \"p99_us\": %.1f, \"p999_us\": %.1f, \"max_us\": %.1f}\n", count,
           rank(written_at, count, 0.50), rank(written_at, count, 0.99), rank(written_at, count, 0.999),
           (double)written_at[count - 1] / 1000.0);
    free(sent_at);
    free(written_at);
    return 0;
}
