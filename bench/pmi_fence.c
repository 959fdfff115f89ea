/* pmi_fence.c - bench/mpi.sh's PMI-1 client: no MPI library, the PMI-1 wire spoken on the socket
 * in PMI_FD, as a task of `srun --mpi=pmi2` sees it. Each rank does
 *   init, get_my_kvsname, put k<rank>=v<rank>, barrier (fence 1), get k<rank+1> (checked),
 *   barrier again (fence 2, warm), finalize
 * and prints one line:
 *   fence RANK SIZE F1_US F2_US IN1 OUT1 IN2 OUT2 OK
 * F1_US, F2_US: microseconds from sending barrier_in until barrier_out arrived (CLOCK_MONOTONIC);
 * IN/OUT: the same moments as CLOCK_REALTIME microseconds, so that the script can time a fence
 * from the last rank in to the last rank out; OK: 1 when the next rank's value was read back.
 * Built by bench/mpi.sh with cc; exits 1 on any PMI error (the reply is printed to stderr). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int fd;
static char buf[65536];
static size_t have;

static long long now_us(clockid_t clk) {
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void die(const char *what, const char *line) {
    fprintf(stderr, "pmi_fence: %s%s%s\n", what, line ? ": " : "", line ? line : "");
    exit(1);
}

static void send_line(const char *s) {
    size_t n = strlen(s), off = 0;
    while (off < n) {
        ssize_t w = write(fd, s + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) die("write to PMI_FD failed", strerror(errno));
        off += (size_t)w;
    }
}

/* One reply line (without its newline) into out. */
static void read_line(char *out, size_t cap) {
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (nl) {
            size_t len = (size_t)(nl - buf);
            if (len >= cap) die("reply too long", NULL);
            memcpy(out, buf, len);
            out[len] = 0;
            memmove(buf, nl + 1, have - len - 1);
            have -= len + 1;
            return;
        }
        if (have == sizeof buf) die("reply too long", NULL);
        ssize_t r = read(fd, buf + have, sizeof buf - have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) die("PMI_FD closed", r < 0 ? strerror(errno) : NULL);
        have += (size_t)r;
    }
}

/* The value of KEY= in a reply line, into out ("" when absent). */
static void attr(const char *line, const char *key, char *out, size_t cap) {
    size_t kl = strlen(key);
    out[0] = 0;
    for (const char *p = line; (p = strstr(p, key)); p += kl)
        if ((p == line || p[-1] == ' ') && p[kl] == '=') {
            size_t n = strcspn(p + kl + 1, " ");
            if (n >= cap) n = cap - 1;
            memcpy(out, p + kl + 1, n);
            out[n] = 0;
            return;
        }
}

static void expect(const char *line, const char *cmd) {
    char c[64], rc[16];
    attr(line, "cmd", c, sizeof c);
    attr(line, "rc", rc, sizeof rc);
    if (strcmp(c, cmd) != 0 || (rc[0] && strcmp(rc, "0") != 0)) die("unexpected reply", line);
}

static void fence(long long *us, long long *in, long long *out) {
    char line[1024];
    long long t0 = now_us(CLOCK_MONOTONIC);
    *in = now_us(CLOCK_REALTIME);
    send_line("cmd=barrier_in\n");
    read_line(line, sizeof line);
    *out = now_us(CLOCK_REALTIME);
    *us = now_us(CLOCK_MONOTONIC) - t0;
    expect(line, "barrier_out");
}

int main(void) {
    const char *e_fd = getenv("PMI_FD"), *e_rank = getenv("PMI_RANK"), *e_size = getenv("PMI_SIZE");
    if (!e_fd || !e_rank || !e_size)
        die("PMI_FD, PMI_RANK or PMI_SIZE unset (run under srun --mpi=pmi2)", NULL);
    fd = atoi(e_fd);
    int rank = atoi(e_rank), size = atoi(e_size);
    char line[1024], kvs[256], req[1024], val[256], want[64];

    send_line("cmd=init pmi_version=1 pmi_subversion=1\n");
    read_line(line, sizeof line);
    expect(line, "response_to_init");
    send_line("cmd=get_my_kvsname\n");
    read_line(line, sizeof line);
    expect(line, "my_kvsname");
    attr(line, "kvsname", kvs, sizeof kvs);
    snprintf(req, sizeof req, "cmd=put kvsname=%s key=k%d value=v%d\n", kvs, rank, rank);
    send_line(req);
    read_line(line, sizeof line);
    expect(line, "put_result");

    long long f1, f2, in1, out1, in2, out2;
    fence(&f1, &in1, &out1);
    int next = (rank + 1) % size;
    snprintf(req, sizeof req, "cmd=get kvsname=%s key=k%d\n", kvs, next);
    send_line(req);
    read_line(line, sizeof line);
    expect(line, "get_result");
    attr(line, "value", val, sizeof val);
    snprintf(want, sizeof want, "v%d", next);
    int ok = strcmp(val, want) == 0;
    fence(&f2, &in2, &out2);

    send_line("cmd=finalize\n");
    read_line(line, sizeof line);
    expect(line, "finalize_ack");
    /* One write: the ranks' lines meet in srun's output. */
    int n = snprintf(line, sizeof line, "fence %d %d %lld %lld %lld %lld %lld %lld %d\n", rank,
                     size, f1, f2, in1, out1, in2, out2, ok);
    if (write(1, line, (size_t)n) != n) return 1;
    return ok ? 0 : 1;
}
