/*
 * bell_flood.c: a hostile local user's view of a rank's doorbell. Finds
 * the doorbell sockets of process PID in /proc/net/unix (abstract names
 * are listed there for every user) and sends COUNT one-byte datagrams to
 * each, without waiting when the queue is full.
 * Usage: bell_flood PID COUNT
 * Prints "found NAME" per socket and "sent N of M" at the end; exits 0 if
 * it found a doorbell and managed to send at least one datagram.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bell_flood PID COUNT\n");
        return 2;
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "@tide-bell-%d-", atoi(argv[1]));
    long count = atol(argv[2]);
    FILE *f = fopen("/proc/net/unix", "r");
    if (!f) {
        perror("/proc/net/unix");
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    char line[512];
    long sent = 0, tried = 0;
    int found = 0;
    while (fd >= 0 && fgets(line, sizeof line, f)) {
        char *at = strstr(line, prefix);
        if (!at)
            continue;
        at[strcspn(at, " \n")] = '\0';
        printf("found %s\n", at);
        found++;
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        size_t len = strlen(at + 1);
        memcpy(a.sun_path + 1, at + 1, len);
        socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
        for (long i = 0; i < count; i++) {
            tried++;
            if (sendto(fd, "x", 1, 0, (struct sockaddr *)&a, alen) == 1)
                sent++;
            else if (errno == EAGAIN)
                poll(NULL, 0, 0); /* queue full: let the owner run */
        }
    }
    fclose(f);
    printf("sent %ld of %ld\n", sent, tried);
    return found && sent > 0 ? 0 : 1;
}
