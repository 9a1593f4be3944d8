/* An SD card's syncs for bench/journal.py, LD_PRELOADed into the process it measures: each call to a sync
 * function returns ARBITRO_SYNC_DELAY_MS milliseconds after the real call did (a sleep, no CPU taken, no other
 * call slowed), and appends one letter naming the function to the file ARBITRO_SYNC_COUNT, so the bench can count
 * the syncs made between two points. Built by the bench with the machine's cc: cc -shared -fPIC -o x.so x.c -ldl
 *
 * SQLite (Debian's libsqlite3) syncs with fdatasync; the bench checks against strace that nothing syncs past it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static long delay_ns;
static int count_fd = -1;

__attribute__((constructor)) static void setup(void) {
    const char *delay = getenv("ARBITRO_SYNC_DELAY_MS"), *count = getenv("ARBITRO_SYNC_COUNT");
    delay_ns = delay ? (long)(atof(delay) * 1e6) : 0;
    if (count)
        count_fd = open(count, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

/* After the real call: the letter (one write, O_APPEND: whole whatever the thread), then the delay. */
static void synced(char letter) {
    int saved = errno;
    if (count_fd >= 0 && write(count_fd, &letter, 1) != 1) {
        /* a lost count shows as a mismatch with strace; the sync itself went through */
    }
    struct timespec left = {delay_ns / 1000000000L, delay_ns % 1000000000L};
    while (nanosleep(&left, &left) == -1 && errno == EINTR) {
    }
    errno = saved;
}

#define REAL(name) static __typeof__(name) *real; if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

int fsync(int fd) {
    REAL(fsync);
    int done = real(fd);
    synced('f');
    return done;
}

int fdatasync(int fd) {
    REAL(fdatasync);
    int done = real(fd);
    synced('d');
    return done;
}

int syncfs(int fd) {
    REAL(syncfs);
    int done = real(fd);
    synced('s');
    return done;
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
    REAL(sync_file_range);
    int done = real(fd, offset, nbytes, flags);
    synced('r');
    return done;
}
