// calls.hpp - Calls<Ops>: what every typed plugin wrapper (select_calls.hpp, ...) shares.
//
// The core calls a plugin only through a wrapper of its type. Each wrapper method does, in one
// place, what every call site used to do for itself: it tests the op (the NULL policy below),
// fills struct_size in what it hands over, converts the core's types (bitmaps, strings, spans) to
// the C views, and turns the return code and drover_error into a Status naming the plugin and the
// op ("select/cons_tres job_begin: ...").
//
// The NULL policy, one for every op: an op the plugin does not provide (a NULL member: a plugin
// built against an older table, no plugin loaded, or a test's fake table) is never called, and
// the method answers the default its comment names. For an optional op that default is what the
// SDK header says a NULL op means (job_cpus_on_node: all the node's CPUs). For an op the loader
// requires, which only a missing plugin or a fake lacks, it is either "nothing to do" (DROVER_OK,
// for notifications such as job_fini) or Status(DROVER_ENOENT, "<id> <op>: not provided").
#pragma once

#include <string>
#include <string_view>

#include <drover/plugin.h>

#include "common/status.hpp"
#include "plugin/bound.hpp"
#include "plugin/call_timings.hpp"

namespace drover::plugin {

template <class Ops>
class Calls {
  public:
    Calls() = default; // no plugin: every op absent
    // Implicit, so that code handed a Bound (the loader's or a test's fake) can call through it.
    // OWNERSHIP: b is borrowed and must outlive the wrapper (PluginSet's do, until it goes).
    Calls(const Bound<Ops> &b) : b_(&b) {} // NOLINT(google-explicit-constructor)

    explicit operator bool() const { return b_ && bool(*b_); }
    // "select/linear"; empty when no plugin is loaded.
    const std::string &id() const { return b_ ? b_->id : none_id(); }
    // The ABI minor the plugin was built against (the core's when none is loaded).
    uint16_t abi_minor() const { return b_ ? b_->abi_minor : DROVER_ABI_MINOR; }

  protected:
    const Ops &ops() const { return b_ ? b_->ops : none_ops(); }
    // Times the call about to be made to op (a literal): its count and duration are recorded.
    [[nodiscard]] TimedCall timed(std::string_view op) const {
        return TimedCall(b_ ? b_->timings.get() : nullptr, op);
    }
    void *state() const { return b_ ? b_->state : nullptr; }
    // The Status of a call that returned rc and wrote err.
    Status status(int rc, const drover_error &err, std::string_view op) const {
        return Status(rc, err, id(), op);
    }
    // The Status of a required op that is absent.
    Status absent(std::string_view op) const {
        std::string text = id().empty() ? std::string("no plugin") : id();
        return Status(DROVER_ENOENT, text.append(" ").append(op).append(": not provided"));
    }

  private:
    static const Ops &none_ops() {
        static const Ops none{};
        return none;
    }
    static const std::string &none_id() {
        static const std::string none;
        return none;
    }
    const Bound<Ops> *b_ = nullptr;
};

} // namespace drover::plugin
