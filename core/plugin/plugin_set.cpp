// plugin_set.cpp - finds, validates, initialises and binds plugins, and tears them down in order.
//
// Every refusal is a LoadError with one line that starts with the file (or the id, when no file
// was found), then says what was expected and what was found. Calls into plugin code (entry,
// init, fini) run behind an exception barrier.
#include "plugin/plugin_set.hpp"

#include <cstring>
#include <exception>
#include <filesystem>
#include <span>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "plugin/host_api.hpp"
#include "plugin/loader.hpp"

#ifndef DROVER_BUILD_PLUGIN_DIR
#error "DROVER_BUILD_PLUGIN_DIR must be defined by core/plugin/CMakeLists.txt"
#endif
#ifndef DROVER_INSTALL_PLUGIN_DIR
#error "DROVER_INSTALL_PLUGIN_DIR must be defined by core/plugin/CMakeLists.txt"
#endif
#ifndef DROVER_BUILD_ROOT
#error "DROVER_BUILD_ROOT must be defined by core/plugin/CMakeLists.txt"
#endif
#ifndef DROVER_PREFIX_PLUGIN_DIR
#error "DROVER_PREFIX_PLUGIN_DIR must be defined by core/plugin/CMakeLists.txt"
#endif

namespace drover::plugin {

// One loaded plugin. Members are destroyed in reverse order: fini runs in the destructor body,
// then the context goes, and the library is unloaded last.
struct PluginSet::Loaded {
    std::unique_ptr<Library> lib;
    const drover_plugin_desc *desc = nullptr; // static storage inside lib
    drover_ctx ctx;
    void *state = nullptr; // the plugin's, from init
    bool initialized = false;

    Loaded() = default;
    Loaded(const Loaded &) = delete;
    Loaded &operator=(const Loaded &) = delete;
    ~Loaded();
};

namespace {

// The ABI 1.0 descriptor ends with ops; a shorter one cannot be read safely. (Members appended
// later are read only when struct_size covers them.)
constexpr uint32_t kDescMinSize = offsetof(drover_plugin_desc, ops) + sizeof(void *);

// Every ops table starts with its uint32_t struct_size.
constexpr uint32_t kOpsMinSize = sizeof(uint32_t);

std::shared_ptr<spdlog::logger> logger() {
    auto l = spdlog::get("plugin");
    return l ? l : spdlog::default_logger();
}

// Slurm spellings that name a Drover plugin under another name.
std::string canonical_id(const std::string &id) {
    if (id == "auth/slurm") return "auth/key";
    if (id == "select/cons_res") return "select/cons_tres";
    constexpr std::string_view kAcctPrefix = "accounting_storage/";
    if (id.compare(0, kAcctPrefix.size(), kAcctPrefix) == 0)
        return "accounting/" + id.substr(kAcctPrefix.size());
    return id;
}

std::pair<std::string, std::string> split_id(const std::string &id) {
    auto slash = id.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == id.size() ||
        id.find('/', slash + 1) != std::string::npos)
        throw LoadError(id + ": not a plugin name (expected type/name, as in select/linear)");
    std::string type = id.substr(0, slash);
    if (type != "select" && type != "sched" && type != "auth" && type != "accounting" &&
        type != "switch" && type != "proctrack" && type != "priority" && type != "job_submit")
        throw LoadError(id + ": unknown plugin type " + type +
                        " (expected select, sched, auth, accounting, switch, proctrack, "
                        "priority or job_submit)");
    return {std::move(type), id.substr(slash + 1)};
}

// Text a plugin wrote, made safe for a one-line message.
std::string one_line(const char *text, size_t cap) {
    std::string s(text, strnlen(text, cap));
    for (char &c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

const char *or_empty(const char *s) {
    return s ? s : "";
}

const drover_plugin_desc *call_entry(const Library &lib) {
    try {
        return lib.entry()(DROVER_ABI_MAJOR, DROVER_ABI_MINOR);
    } catch (const std::exception &e) {
        throw LoadError(lib.path() + ": drover_plugin_entry threw: " + e.what());
    } catch (...) {
        throw LoadError(lib.path() + ": drover_plugin_entry threw an unknown exception");
    }
}

// Identity and version checks, in the order a reader would ask them.
void check_descriptor(const std::string &path, const drover_plugin_desc *d, const std::string &type,
                      const std::string &name) {
    const std::string host_abi =
        std::to_string(DROVER_ABI_MAJOR) + "." + std::to_string(DROVER_ABI_MINOR);
    if (!d)
        throw LoadError(path + ": drover_plugin_entry returned NULL: the plugin refuses host ABI " +
                        host_abi);
    if (d->struct_size < kDescMinSize)
        throw LoadError(path + ": descriptor is " + std::to_string(d->struct_size) +
                        " bytes, expected at least " + std::to_string(kDescMinSize));
    if (d->abi_major != DROVER_ABI_MAJOR)
        throw LoadError(path + ": ABI major " + std::to_string(d->abi_major) +
                        ", this core speaks " + std::to_string(DROVER_ABI_MAJOR));
    if (d->abi_minor > DROVER_ABI_MINOR)
        throw LoadError(path + ": built for ABI " + std::to_string(d->abi_major) + "." +
                        std::to_string(d->abi_minor) + ", newer than this core's " + host_abi);
    if (type != or_empty(d->type) || name != or_empty(d->name))
        throw LoadError(path + ": is " + or_empty(d->type) + "/" + or_empty(d->name) +
                        ", expected " + type + "/" + name);
    if (!d->ops) throw LoadError(path + ": " + type + "/" + name + " has no operations table");
    uint32_t ops_size;
    std::memcpy(&ops_size, d->ops, sizeof ops_size);
    if (ops_size < kOpsMinSize)
        throw LoadError(path + ": operations table is " + std::to_string(ops_size) +
                        " bytes, expected at least " + std::to_string(kOpsMinSize));
}

// An op every plugin of a type must provide, by its offset in the table.
struct RequiredOp {
    const char *name;
    size_t offset;
};
#define DROVER_REQUIRED_OP(T, member)                                                              \
    RequiredOp {                                                                                   \
#member, offsetof(T, member)                                                               \
    }

constexpr RequiredOp kSelectRequired[] = {
    DROVER_REQUIRED_OP(drover_select_ops, node_init),
    DROVER_REQUIRED_OP(drover_select_ops, job_test),
    DROVER_REQUIRED_OP(drover_select_ops, job_begin),
    DROVER_REQUIRED_OP(drover_select_ops, job_fini),
};
constexpr RequiredOp kSchedRequired[] = {DROVER_REQUIRED_OP(drover_sched_ops, schedule)};
constexpr RequiredOp kPriorityRequired[] = {
    DROVER_REQUIRED_OP(drover_priority_ops, fairshare),
    DROVER_REQUIRED_OP(drover_priority_ops, job_priority),
};
constexpr RequiredOp kJobSubmitRequired[] = {DROVER_REQUIRED_OP(drover_job_submit_ops, job_submit)};
constexpr RequiredOp kAuthRequired[] = {
    DROVER_REQUIRED_OP(drover_auth_ops, cred_create),
    DROVER_REQUIRED_OP(drover_auth_ops, cred_verify),
};
constexpr RequiredOp kAcctRequired[] = {DROVER_REQUIRED_OP(drover_acct_ops, job_event)};
constexpr RequiredOp kSwitchRequired[] = {
    DROVER_REQUIRED_OP(drover_switch_ops, job_init),
    DROVER_REQUIRED_OP(drover_switch_ops, job_fini),
};
constexpr RequiredOp kProctrackRequired[] = {
    DROVER_REQUIRED_OP(drover_proctrack_ops, cont_create),
    DROVER_REQUIRED_OP(drover_proctrack_ops, cont_signal),
    DROVER_REQUIRED_OP(drover_proctrack_ops, cont_pids),
};
#undef DROVER_REQUIRED_OP

// The plugin's table in the core's layout: copied up to min(sizes), the rest zero (NULL ops).
// struct_size then says how much of the copy came from the plugin.
template <class Ops>
Ops copy_ops(const void *plugin_ops) {
    Ops ops;
    std::memset(&ops, 0, sizeof ops);
    uint32_t plugin_size;
    std::memcpy(&plugin_size, plugin_ops, sizeof plugin_size);
    const size_t n = plugin_size < sizeof(Ops) ? plugin_size : sizeof(Ops);
    std::memcpy(&ops, plugin_ops, n);
    ops.struct_size = static_cast<uint32_t>(n);
    return ops;
}

template <class Ops>
void check_required(const std::string &path, const std::string &id, const std::string &type,
                    const Ops &ops, std::span<const RequiredOp> required) {
    for (const RequiredOp &op : required) {
        void *fn;
        std::memcpy(&fn, reinterpret_cast<const char *>(&ops) + op.offset, sizeof fn);
        if (!fn)
            throw LoadError(path + ": " + id + " does not provide " + op.name + ", which every " +
                            type + " plugin must");
    }
}

void run_init(PluginSet::Loaded &rec, const std::string &path, const std::string &id) {
    if (!rec.desc->init) {
        rec.initialized = true;
        return;
    }
    drover_error err{};
    int rc;
    try {
        rc = rec.desc->init(&rec.ctx, &host_api(), &rec.state, &err);
    } catch (const std::exception &e) {
        throw LoadError(path + ": " + id + " init threw: " + one_line(e.what(), 1024));
    } catch (...) {
        throw LoadError(path + ": " + id + " init threw an unknown exception");
    }
    if (rc != DROVER_OK) {
        std::string text = one_line(err.text, sizeof err.text);
        if (text.empty()) text = "error " + std::to_string(rc);
        throw LoadError(path + ": " + id + " init failed: " + text);
    }
    rec.initialized = true;
}

// Checks the table, runs init and fills slot. Nothing is bound unless everything succeeded.
template <class Ops>
void bind_plugin(Bound<Ops> &slot, PluginSet::Loaded &rec, const std::string &path,
                 const std::string &id, const std::string &type,
                 std::span<const RequiredOp> required) {
    if (slot)
        throw LoadError(path + ": a " + type + " plugin is already loaded (" + slot.id + " from " +
                        slot.path + ")");
    Ops ops = copy_ops<Ops>(rec.desc->ops);
    check_required(path, id, type, ops, required);
    run_init(rec, path, id);
    slot.ops = ops;
    slot.state = rec.state;
    slot.id = id;
    slot.path = path;
    slot.abi_minor = rec.desc->abi_minor;
}

} // namespace

PluginSet::Loaded::~Loaded() {
    if (!initialized || !desc || !desc->fini) return;
    try {
        desc->fini(state);
    } catch (const std::exception &e) {
        logger()->error("[{}] fini threw: {}", ctx.id, e.what());
    } catch (...) {
        logger()->error("[{}] fini threw an unknown exception", ctx.id);
    }
}

PluginSet::PluginSet(const Config &conf, std::string role) : conf_(conf), role_(std::move(role)) {}

PluginSet::~PluginSet() {
    // Reverse load order: a plugin loaded later may rely on one loaded earlier.
    while (!loaded_.empty()) loaded_.pop_back();
}

namespace {

std::filesystem::path running_program() {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path{} : exe;
}

// A program of this build tree loads this build's plugins; an installed one never looks there
// (a root daemon must not load what a build directory holds).
bool runs_from_build_tree(const std::filesystem::path &exe) {
    std::string_view e = exe.native(), root = DROVER_BUILD_ROOT;
    return e.starts_with(root) && e.size() > root.size() && e[root.size()] == '/';
}

// The plugins of the prefix the running program is installed in (PREFIX/sbin/droverd ->
// PREFIX/<libdir>/drover), wherever that prefix is: a package installs under /usr what a build
// configured for /usr/local would look for there.
std::string beside_program(const std::filesystem::path &exe) {
    if (exe.empty()) return {};
    return (exe.parent_path().parent_path() / DROVER_PREFIX_PLUGIN_DIR).lexically_normal().string();
}

} // namespace

std::vector<std::string> PluginSet::search_dirs() const {
    std::vector<std::string> dirs;
    if (conf_.plugin_dir.empty()) {
        const auto exe = running_program();
        if (runs_from_build_tree(exe)) return {DROVER_BUILD_PLUGIN_DIR, DROVER_INSTALL_PLUGIN_DIR};
        dirs = {DROVER_INSTALL_PLUGIN_DIR};
        if (std::string b = beside_program(exe); !b.empty() && b != dirs.back()) dirs.push_back(b);
        return dirs;
    }
    std::string_view rest = conf_.plugin_dir;
    while (!rest.empty()) {
        auto colon = rest.find(':');
        std::string_view dir = rest.substr(0, colon);
        if (!dir.empty()) dirs.emplace_back(dir);
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    return dirs;
}

void PluginSet::load(const std::string &id) {
    const std::string canon = canonical_id(id);
    split_id(canon); // refuse a malformed id or unknown type before touching the disk
    const std::string file = plugin_file_name(canon);
    const auto dirs = search_dirs();
    std::string tried;
    for (const auto &dir : dirs) {
        std::filesystem::path path = std::filesystem::path(dir) / file;
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) return load_file(path.string(), canon);
        tried += (tried.empty() ? "" : ":") + dir;
    }
    throw LoadError(canon + ": " + file + " not found in " +
                    (tried.empty() ? "(no directory)" : tried));
}

void PluginSet::load_file(const std::string &path, const std::string &id_in) {
    const std::string id = canonical_id(id_in);
    const auto [type, name] = split_id(id);

    auto rec = std::make_unique<Loaded>();
    rec->lib = std::make_unique<Library>(path);
    rec->desc = call_entry(*rec->lib);
    check_descriptor(path, rec->desc, type, name);
    rec->ctx = make_host_context(id, conf_, role_);
    loaded_.reserve(loaded_.size() + 1); // so that recording rec below cannot fail

    if (type == "select")
        bind_plugin(select_, *rec, path, id, type, kSelectRequired);
    else if (type == "sched")
        bind_plugin(sched_, *rec, path, id, type, kSchedRequired);
    else if (type == "auth")
        bind_plugin(auth_, *rec, path, id, type, kAuthRequired);
    else if (type == "accounting")
        bind_plugin(acct_, *rec, path, id, type, kAcctRequired);
    else if (type == "switch")
        bind_plugin(switch__, *rec, path, id, type, kSwitchRequired);
    else if (type == "proctrack")
        bind_plugin(proctrack_, *rec, path, id, type, kProctrackRequired);
    else if (type == "priority")
        bind_plugin(priority_, *rec, path, id, type, kPriorityRequired);
    else if (type == "job_submit") { // several, called in the order loaded
        auto slot = std::make_unique<Bound<drover_job_submit_ops>>();
        bind_plugin(*slot, *rec, path, id, type, kJobSubmitRequired);
        job_submit_.push_back(std::move(slot));
    } else
        throw LoadError(path + ": unknown plugin type " + type); // split_id let it through

    logger()->info("[{}] loaded {} version {} (ABI {}.{})", id, path, or_empty(rec->desc->version),
                   rec->desc->abi_major, rec->desc->abi_minor);
    loaded_.push_back(std::move(rec));
}

std::string plugin_file_name(std::string_view id) {
    std::string file(id);
    for (char &c : file)
        if (c == '/') c = '_';
    return file + ".so";
}

std::vector<std::pair<std::string, std::shared_ptr<const CallTimings>>>
PluginSet::call_timings() const {
    std::vector<std::pair<std::string, std::shared_ptr<const CallTimings>>> out;
    auto add = [&](const auto &b) {
        if (b) out.emplace_back(b.id, b.timings);
    };
    add(select_), add(sched_), add(auth_), add(acct_), add(switch__), add(proctrack_),
        add(priority_);
    for (const auto &b : job_submit_) add(*b);
    return out;
}

} // namespace drover::plugin
