#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

int run_loop_floor(const int *descriptors, int count) {
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) {
        perror("epoll_create1");
        return 1;
    }
    int open_count = 0;
    for (int i = 0; i < count; i++) {
        int fd = descriptors[i];
        struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
        if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0 || epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
            fprintf(stderr, "daydream-machine-floor: fd %d: %s\n", fd, strerror(errno));
            return 1;
        }
        open_count++;
    }
    unsigned char packet[512];
    unsigned char frame[48] = {0};
    struct epoll_event ready[16];
    while (open_count > 0) {
        int n = epoll_wait(epoll, ready, 16, -1);
        if (n < 0 && errno != EINTR) {
            perror("epoll_wait");
            return 1;
        }
        for (int i = 0; i < n; i++) {
            int fd = ready[i].data.fd;
            ssize_t length = read(fd, packet, sizeof packet);
            if (length > 0) {
                if (write(STDOUT_FILENO, frame, sizeof frame) < 0 && errno != EAGAIN) return 1;
            } else if (length == 0 || (errno != EAGAIN && errno != EINTR)) {
                epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
                close(fd);
                open_count--;
            }
        }
    }
    close(epoll);
    return 0;
}
