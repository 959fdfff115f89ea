// drover_pmix.cpp - drover-pmix: the PMIx server of one step on one node (srun --mpi=pmix).
//
// droverd starts it as the step's user before the tasks, with the step's layout in its arguments
// and a socket to droverd on its standard input (noded/pmix/pmix_link.hpp). It registers the
// step's namespace and each local rank with OpenPMIx's server library, sends droverd each rank's
// PMIx variables (PMIx_server_setup_fork) for its environment, then serves the ranks: a fence's
// data goes to droverd (and through srun to every node), its result comes back; an abort is
// passed on. It ends when droverd closes the socket, at the step's end.
//
// A process of its own, not a part of droverd: the library runs threads of its own, which a
// daemon that forks task supervisors should not carry, and it runs as the user, not as root.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <semaphore>
#include <set>
#include <stdexcept>

#include "noded/pmix/pmix_job.hpp"
#include "noded/pmix/pmix_link.hpp"

using namespace drover::noded;

namespace {

std::mutex g_out_lock; // the socket is written from the library's thread and from main
struct PendingFence {
    pmix_modex_cbfunc_t done;
    void *cbdata;
};
std::deque<PendingFence> g_fences; // fences sent to droverd, oldest first

void send_frame(pmixlink::Type type, uint32_t rank, std::string_view data) {
    std::string f;
    pmixlink::frame(f, type, rank, data);
    std::lock_guard lock(g_out_lock);
    for (std::size_t at = 0; at < f.size();) {
        ssize_t n = ::write(0, f.data() + at, f.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) std::_Exit(1); // droverd is gone: so is the step
        at += std::size_t(n);
    }
}

// Local ranks that connected, and those of them that finalized (the library's thread writes,
// main reads when a rank's task has ended; a rank finalizes before its task can end).
std::mutex g_ranks_lock;
std::set<uint32_t> g_connected, g_finalized;

pmix_status_t on_connected(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t, void *) {
    std::lock_guard lock(g_ranks_lock);
    g_connected.insert(proc->rank);
    return PMIX_OPERATION_SUCCEEDED;
}
pmix_status_t on_finalized(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t, void *) {
    std::lock_guard lock(g_ranks_lock);
    g_finalized.insert(proc->rank);
    return PMIX_OPERATION_SUCCEEDED;
}

// A local rank's task ended: one that spoke PMIx and did not finalize died in the middle.
void rank_exited(uint32_t rank) {
    bool died;
    {
        std::lock_guard lock(g_ranks_lock);
        died = g_connected.count(rank) && !g_finalized.count(rank);
    }
    if (died) send_frame(pmixlink::Abort, rank, std::string(4, '\xff'));
}

pmix_status_t on_abort(const pmix_proc_t *proc, void *, int status, const char msg[], pmix_proc_t[],
                       size_t, pmix_op_cbfunc_t, void *) {
    std::string data(4, '\0');
    drover::stepio::put32(reinterpret_cast<uint8_t *>(data.data()), uint32_t(status));
    send_frame(pmixlink::Abort, proc->rank, data + (msg ? msg : ""));
    return PMIX_OPERATION_SUCCEEDED;
}

// Every local rank entered the fence: this node's data goes out; the answer comes on stdin.
// Only fences of the whole step (every node takes part, one at a time) are served.
pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t,
                       char *data, size_t ndata, pmix_modex_cbfunc_t done, void *cbdata) {
    if (nprocs != 1 || procs[0].rank != PMIX_RANK_WILDCARD) return PMIX_ERR_NOT_SUPPORTED;
    {
        std::lock_guard lock(g_out_lock);
        if (!g_fences.empty()) return PMIX_ERR_NOT_SUPPORTED; // one fence at a time
    }
    {
        std::lock_guard lock(g_out_lock);
        g_fences.push_back({done, cbdata});
    }
    send_frame(pmixlink::Fence, 0, std::string_view(data ? data : "", data ? ndata : 0));
    return PMIX_SUCCESS;
}

// Every node's data is in every fence's result: there is nothing to ask another node for.
pmix_status_t on_direct_modex(const pmix_proc_t *, const pmix_info_t[], size_t, pmix_modex_cbfunc_t,
                              void *) {
    return PMIX_ERR_NOT_SUPPORTED;
}

void release(void *bytes) {
    std::free(bytes);
}

void fence_done(std::string_view all) {
    PendingFence f{};
    {
        std::lock_guard lock(g_out_lock);
        if (g_fences.empty()) return;
        f = g_fences.front();
        g_fences.pop_front();
    }
    char *copy = static_cast<char *>(std::malloc(all.size() ? all.size() : 1));
    std::memcpy(copy, all.data(), all.size());
    f.done(PMIX_SUCCESS, copy, all.size(), f.cbdata, release, copy);
}

// An operation the library completes later: its status, once op_done has been called.
struct Pending {
    std::binary_semaphore done{0};
    pmix_status_t status = PMIX_SUCCESS;
};

void op_done(pmix_status_t status, void *pending) {
    auto *p = static_cast<Pending *>(pending);
    p->status = status;
    p->done.release();
}

void check(pmix_status_t rc, const char *what) {
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
        throw std::runtime_error(std::string(what) + " failed: " + PMIx_Error_string(rc));
}

// rc of a call that completes through op_done: waits for it when it will (PMIX_SUCCESS), and
// throws for a failure either way.
void await(pmix_status_t rc, Pending &p, const char *what) {
    check(rc, what);
    if (rc != PMIX_SUCCESS) return; // done already: op_done is not called
    p.done.acquire();
    check(p.status, what);
}

// The server up, the namespace and local ranks registered, each rank's variables sent.
void start(const pmix::StepLayout &step) {
    static pmix_server_module_t module{};
    module.client_connected = on_connected;
    module.client_finalized = on_finalized;
    module.abort = on_abort;
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    pmix_info_t init[2];
    PMIX_INFO_LOAD(&init[0], PMIX_SERVER_TMPDIR, step.tmpdir.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&init[1], PMIX_SYSTEM_TMPDIR, step.tmpdir.c_str(), PMIX_STRING);
    check(PMIx_server_init(&module, init, 2), "PMIx_server_init");
    std::vector<pmix_info_t> info = pmix::job_info(step);
    Pending ns;
    await(PMIx_server_register_nspace(step.nspace.c_str(), int(step.local().size()), info.data(),
                                      info.size(), op_done, &ns),
          ns, "PMIx_server_register_nspace");
    for (uint32_t rank : step.local()) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, step.nspace.c_str(), rank);
        Pending client;
        await(PMIx_server_register_client(&proc, ::getuid(), ::getgid(), nullptr, op_done, &client),
              client, "PMIx_server_register_client");
        char **env = nullptr;
        check(PMIx_server_setup_fork(&proc, &env), "PMIx_server_setup_fork");
        std::string vars;
        for (char **e = env; e && *e; ++e) vars.append(*e).push_back('\0');
        send_frame(pmixlink::Env, rank, vars);
    }
    send_frame(pmixlink::Ready, 0, {});
}

// droverd's frames until it closes the socket.
void serve() {
    std::string in;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        in.append(buf, std::size_t(n));
        bool bad;
        while (auto f = pmixlink::take(in, &bad)) {
            if (f->type == pmixlink::FenceDone) fence_done(f->data);
            if (f->type == pmixlink::Exited) rank_exited(f->rank);
            in.erase(0, f->used);
        }
        if (bad) return;
    }
}

} // namespace

int main(int argc, char **argv) {
    try {
        pmix::StepLayout step = pmix::parse_layout(argc, argv);
        start(step);
    } catch (const std::exception &e) {
        send_frame(pmixlink::Failed, 0, e.what());
        return 1;
    }
    serve();
    PMIx_server_finalize();
    return 0;
}
