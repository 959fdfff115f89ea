// standalone_driver.cpp - main() for fuzz targets built without libFuzzer (g++ builds): runs the
// seed corpus, then random mutations of it for a fixed time, calling LLVMFuzzerTestOneInput.
//
//   fuzz_x [--seconds=N] [--seed=N] [--max-len=N] [--timeout=N] FILE_OR_DIR...
//
// A crash (signal, uncaught exception, per-input timeout) writes the input to crash-<hash> in the
// current directory (or $DROVER_FUZZ_ARTIFACTS) and exits non-zero; rerun with that file to
// reproduce.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

namespace {

using Input = std::vector<uint8_t>;

// The input being run, for the crash handler (plain globals: the handler must be signal-safe).
const uint8_t *g_data = nullptr;
size_t g_size = 0;
const char *g_artifact_dir = ".";

void write_all(int fd, const void *p, size_t n) {
    const char *c = static_cast<const char *>(p);
    while (n > 0) {
        ssize_t w = ::write(fd, c, n);
        if (w <= 0) return;
        c += w;
        n -= static_cast<size_t>(w);
    }
}

void say(const char *s) {
    write_all(2, s, std::strlen(s));
}

void dump_input(const char *why) {
    uint64_t h = 1469598103934665603ull; // FNV-1a: a stable name for the same input
    for (size_t i = 0; i < g_size; ++i) h = (h ^ g_data[i]) * 1099511628211ull;
    char path[4096];
    char hex[17];
    for (int i = 0; i < 16; ++i) hex[i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 15];
    hex[16] = '\0';
    std::snprintf(path, sizeof path, "%s/crash-%s", g_artifact_dir, hex);
    say("\n==drover-fuzz== ");
    say(why);
    say(" on a ");
    char num[32];
    std::snprintf(num, sizeof num, "%zu", g_size);
    say(num);
    say("-byte input; saved to ");
    say(path);
    say("\n==drover-fuzz== input (escaped, first 512 bytes): ");
    for (size_t i = 0; i < g_size && i < 512; ++i) {
        uint8_t c = g_data[i];
        char buf[8];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            buf[0] = static_cast<char>(c);
            buf[1] = '\0';
        } else {
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
        }
        say(buf);
    }
    say("\n");
    int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        write_all(fd, g_data, g_size);
        ::close(fd);
    }
}

void on_signal(int sig) {
    dump_input(sig == SIGALRM ? "timeout" : strsignal(sig));
    if (sig == SIGALRM) _exit(70);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void install_handlers() {
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL, SIGALRM}) {
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_NODEFER | SA_ONSTACK;
        ::sigaction(sig, &sa, nullptr);
    }
    static std::vector<char> alt(1 << 16); // so a stack overflow still reaches the handler
    stack_t ss{};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ::sigaltstack(&ss, nullptr);
}

bool read_file(const std::string &path, Input &out) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return false;
    uint8_t buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
    std::fclose(f);
    return true;
}

void load(const std::string &path, std::vector<Input> &corpus) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        std::fprintf(stderr, "drover-fuzz: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    if (S_ISDIR(st.st_mode)) {
        std::vector<std::string> names;
        if (DIR *d = ::opendir(path.c_str())) {
            while (dirent *e = ::readdir(d))
                if (e->d_name[0] != '.') names.emplace_back(e->d_name);
            ::closedir(d);
        }
        std::sort(names.begin(), names.end());
        for (const std::string &n : names) load(path + "/" + n, corpus);
        return;
    }
    Input in;
    if (!read_file(path, in)) {
        std::fprintf(stderr, "drover-fuzz: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    corpus.push_back(std::move(in));
}

unsigned g_timeout = 10;

void run_one(const Input &in) {
    // A copy in its own allocation, so reads past the end hit sanitizers when they are on.
    std::unique_ptr<uint8_t[]> copy(new uint8_t[in.size() == 0 ? 1 : in.size()]);
    if (!in.empty()) std::memcpy(copy.get(), in.data(), in.size());
    g_data = copy.get();
    g_size = in.size();
    ::alarm(g_timeout);
    LLVMFuzzerTestOneInput(copy.get(), in.size());
    ::alarm(0);
    g_data = nullptr;
    g_size = 0;
}

// Bytes that matter to Drover's parsers: brackets, ranges, separators, quotes, digits, units.
const char kSpecial[] = "[]-,=\"#:/\\ \t\n0123456789+TKMGunlimitedNODE";

Input mutate(const std::vector<Input> &pool, std::mt19937_64 &rng, size_t max_len) {
    auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
    Input in = pool.empty() ? Input{} : pool[pick(pool.size())];
    size_t rounds = 1 + pick(8);
    for (size_t r = 0; r < rounds; ++r) {
        switch (pick(9)) {
        case 0: // flip a bit
            if (!in.empty()) in[pick(in.size())] ^= static_cast<uint8_t>(1u << pick(8));
            break;
        case 1: // random byte
            if (!in.empty()) in[pick(in.size())] = static_cast<uint8_t>(rng());
            break;
        case 2: // insert a special byte
            in.insert(in.begin() + static_cast<long>(pick(in.size() + 1)),
                      static_cast<uint8_t>(kSpecial[pick(sizeof kSpecial - 1)]));
            break;
        case 3: // replace with a special byte
            if (!in.empty())
                in[pick(in.size())] = static_cast<uint8_t>(kSpecial[pick(sizeof kSpecial - 1)]);
            break;
        case 4: { // erase a range
            if (in.empty()) break;
            size_t at = pick(in.size());
            size_t n = 1 + pick(std::min<size_t>(16, in.size() - at));
            in.erase(in.begin() + static_cast<long>(at), in.begin() + static_cast<long>(at + n));
            break;
        }
        case 5: { // duplicate a range
            if (in.empty()) break;
            size_t at = pick(in.size());
            size_t n = 1 + pick(std::min<size_t>(32, in.size() - at));
            Input chunk(in.begin() + static_cast<long>(at), in.begin() + static_cast<long>(at + n));
            in.insert(in.begin() + static_cast<long>(pick(in.size() + 1)), chunk.begin(),
                      chunk.end());
            break;
        }
        case 6: { // splice in a piece of another input
            const Input &other = pool.empty() ? in : pool[pick(pool.size())];
            if (other.empty()) break;
            size_t at = pick(other.size());
            size_t n = 1 + pick(std::min<size_t>(64, other.size() - at));
            Input chunk(other.begin() + static_cast<long>(at),
                        other.begin() + static_cast<long>(at + n));
            in.insert(in.begin() + static_cast<long>(pick(in.size() + 1)), chunk.begin(),
                      chunk.end());
            break;
        }
        case 7: { // replace a digit run with an edge-case number
            static const char *const kNumbers[] = {"0",
                                                   "1",
                                                   "9",
                                                   "10",
                                                   "00",
                                                   "007",
                                                   "59",
                                                   "60",
                                                   "99",
                                                   "4294967295",
                                                   "4294967296",
                                                   "18446744073709551615",
                                                   "99999999999999999999",
                                                   "1048576",
                                                   "65536"};
            if (in.empty()) break;
            size_t at = pick(in.size());
            size_t end = at;
            while (end < in.size() && in[end] >= '0' && in[end] <= '9') ++end;
            const char *num = kNumbers[pick(sizeof kNumbers / sizeof *kNumbers)];
            in.erase(in.begin() + static_cast<long>(at), in.begin() + static_cast<long>(end));
            in.insert(in.begin() + static_cast<long>(at), num, num + std::strlen(num));
            break;
        }
        default: // truncate
            if (!in.empty()) in.resize(pick(in.size() + 1));
            break;
        }
    }
    if (in.size() > max_len) in.resize(max_len);
    return in;
}

} // namespace

int main(int argc, char **argv) {
    double seconds = 3;
    uint64_t seed = std::random_device{}();
    size_t max_len = 4096;
    std::vector<std::string> paths;
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--seconds=", 0) == 0)
            seconds = std::atof(a.c_str() + 10);
        else if (a.rfind("--seed=", 0) == 0)
            seed = std::strtoull(a.c_str() + 7, nullptr, 10);
        else if (a.rfind("--max-len=", 0) == 0)
            max_len = std::strtoull(a.c_str() + 10, nullptr, 10);
        else if (a.rfind("--timeout=", 0) == 0)
            g_timeout = static_cast<unsigned>(std::atoi(a.c_str() + 10));
        else if (a.rfind("-", 0) == 0) {
            std::fprintf(
                stderr,
                "usage: %s [--seconds=N] [--seed=N] [--max-len=N] [--timeout=N] FILE_OR_DIR...\n",
                argv[0]);
            return 2;
        } else
            paths.push_back(a);
    }
    if (const char *d = std::getenv("DROVER_FUZZ_ARTIFACTS")) g_artifact_dir = d;
    install_handlers();

    std::vector<Input> pool;
    for (const std::string &p : paths) load(p, pool);
    for (const Input &in : pool) run_one(in);
    std::fprintf(stderr, "drover-fuzz: %zu seed inputs ok; mutating for %.1fs (--seed=%llu)\n",
                 pool.size(), seconds, static_cast<unsigned long long>(seed));

    std::mt19937_64 rng(seed);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    uint64_t runs = 0;
    const size_t seeds = pool.size();
    while (seconds > 0 && std::chrono::steady_clock::now() < deadline) {
        Input in = mutate(pool, rng, max_len);
        run_one(in);
        ++runs;
        // Without coverage feedback, keep some mutants so later rounds go deeper than one step.
        if (rng() % 8 == 0) {
            if (pool.size() < seeds + 512)
                pool.push_back(std::move(in));
            else
                pool[seeds + rng() % 512] = std::move(in);
        }
    }
    std::fprintf(stderr, "drover-fuzz: %llu mutated inputs ok\n",
                 static_cast<unsigned long long>(runs));
    return 0;
}
