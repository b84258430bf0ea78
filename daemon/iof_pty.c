/*
 * iof_pty.c: a pseudo-terminal for a rank's stdout. C's stdio buffers a
 * pipe fully and a terminal by lines, so through a pipe the last lines a
 * rank printed before it was killed die with its buffer; on a terminal
 * they have already been written. The rank gets the terminal's slave side
 * as its stdout, the daemon reads the master side as it reads a pipe
 * (after the rank's end it reads what is left, then EIO, its end of file).
 * The terminal passes bytes as they are: no echo, no "\r\n" for "\n".
 */
#include "tided.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

int iof_open_pty(int fds[2])
{
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0)
        return -1;
    char name[128];
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, sizeof name) != 0) {
        close(master);
        return -1;
    }
    /* O_NOCTTY: it never becomes the controlling terminal of the daemon
     * or of the rank (which is no session leader) */
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        close(master);
        return -1;
    }
    struct termios t;
    if (tcgetattr(slave, &t) == 0) {
        t.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK | ECHONL | ECHOCTL | ECHOKE | ICANON | ISIG | IEXTEN);
        t.c_iflag &= ~(tcflag_t)(ICRNL | INLCR | IGNCR | ISTRIP | IXON);
        t.c_oflag &= ~(tcflag_t)(ONLCR | OCRNL | ONOCR | ONLRET);
        if (tcsetattr(slave, TCSANOW, &t) != 0) {
            close(slave);
            close(master);
            return -1;
        }
    }
    fds[0] = master;
    fds[1] = slave;
    return 0;
}
