// plugin_set.hpp - the plugins one daemon has loaded, each behind its typed operations table.
//
// A PluginSet owns every plugin it loads: the shared object, the descriptor, the per-instance
// state and the host table handed to it. Destroying the set calls each fini() in reverse load
// order and only then unloads the libraries. No Boost header appears here: loader.cpp alone
// includes Boost.DLL.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <drover/accounting.h>
#include <drover/auth.h>
#include <drover/job_submit.h>
#include <drover/priority.h>
#include <drover/proctrack.h>
#include <drover/sched.h>
#include <drover/select.h>
#include <drover/switch.h>

#include "common/error.hpp"
#include "plugin/acct_calls.hpp"
#include "plugin/auth_calls.hpp"
#include "plugin/job_submit_calls.hpp"
#include "plugin/priority_calls.hpp"
#include "plugin/bound.hpp"
#include "plugin/proctrack_calls.hpp"
#include "plugin/sched_calls.hpp"
#include "plugin/select_calls.hpp"
#include "plugin/switch_calls.hpp"

namespace drover {
struct Config;
}

namespace drover::plugin {

// A plugin was refused. what() is one line naming the file, what was expected and what was
// found ("/usr/lib/drover/select_linear.so: ABI major 2, this core speaks 1").
class LoadError : public Error {
  public:
    explicit LoadError(const std::string &what) : Error(DROVER_EINVAL, what) {}
};

class PluginSet {
  public:
    // role is "ctld", "noded" or "cli" (what host->role() answers). OWNERSHIP: conf is borrowed
    // and must outlive the set: plugins get pointers into conf.raw from conf_get until fini.
    PluginSet(const Config &conf, std::string role);
    ~PluginSet();
    PluginSet(const PluginSet &) = delete;
    PluginSet &operator=(const PluginSet &) = delete;

    // Loads the plugin for `id` ("select/linear"; Slurm names Drover spells otherwise are mapped:
    // auth/slurm -> auth/key, select/cons_res -> select/cons_tres, accounting_storage/X ->
    // accounting/X), from the directories of PluginDir (colon-separated),
    // else the build tree's plugin directory, else the installed one. Runs its init(). Throws
    // LoadError with one line when the file is missing, has no drover_plugin_entry, returns NULL,
    // has another ABI major or a newer minor, a short descriptor or table, a type/name other than
    // id, or when init() fails.
    void load(const std::string &id);

    // Loads from an explicit file (tests of the loader). Same checks as load().
    void load_file(const std::string &path, const std::string &id);

    // How the core calls each plugin: typed wrappers (calls.hpp) with the NULL checks, views and
    // Status. An empty slot (no plugin of that type loaded) answers each op's absent default.
    SelectCalls select_calls() const { return select_; }
    SchedCalls sched_calls() const { return sched_; }
    AuthCalls auth_calls() const { return auth_; }
    AcctCalls acct_calls() const { return acct_; }
    SwitchCalls switch_calls() const { return switch__; }
    ProctrackCalls proctrack_calls() const { return proctrack_; }
    PriorityCalls priority_calls() const { return priority_; }
    // JobSubmitPlugins, in the order loaded (any number; the others are one per type).
    std::vector<JobSubmitCalls> job_submit_calls() const {
        std::vector<JobSubmitCalls> out;
        for (const auto &b : job_submit_) out.emplace_back(*b);
        return out;
    }

    // Each loaded plugin's id ("select/cons_tres") and the timings of its calls (call_timings.hpp).
    std::vector<std::pair<std::string, std::shared_ptr<const CallTimings>>> call_timings() const;

    // The raw tables, for the loader's tests and the code not yet moved to the wrappers.
    const Bound<drover_select_ops> &select() const { return select_; }
    const Bound<drover_sched_ops> &sched() const { return sched_; }
    const Bound<drover_auth_ops> &auth() const { return auth_; }
    const Bound<drover_acct_ops> &acct() const { return acct_; }
    const Bound<drover_switch_ops> &switch_() const { return switch__; }
    const Bound<drover_proctrack_ops> &proctrack() const { return proctrack_; }
    const Bound<drover_priority_ops> &priority() const { return priority_; }

    // Puts a table of local functions in a slot, as if a plugin had been loaded there: the fake
    // plugins of unit tests (no file, no init; the set never calls a fini for them).
    void inject(Bound<drover_select_ops> b) { select_ = std::move(b); }
    void inject(Bound<drover_sched_ops> b) { sched_ = std::move(b); }
    void inject(Bound<drover_auth_ops> b) { auth_ = std::move(b); }
    void inject(Bound<drover_priority_ops> b) { priority_ = std::move(b); }

    // The directories searched, in order.
    std::vector<std::string> search_dirs() const;

    struct Loaded; // one loaded plugin (library, descriptor, state, host context)

  private:
    const Config &conf_;
    std::string role_;
    std::vector<std::unique_ptr<Loaded>> loaded_;
    Bound<drover_select_ops> select_;
    Bound<drover_sched_ops> sched_;
    Bound<drover_auth_ops> auth_;
    Bound<drover_acct_ops> acct_;
    Bound<drover_switch_ops> switch__;
    Bound<drover_proctrack_ops> proctrack_;
    Bound<drover_priority_ops> priority_;
    std::vector<std::unique_ptr<Bound<drover_job_submit_ops>>> job_submit_; // stable addresses
};

// The file name for a plugin id: "select/linear" -> "select_linear.so".
std::string plugin_file_name(std::string_view id);

} // namespace drover::plugin
