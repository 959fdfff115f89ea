// job_submit_hook.cpp - a JobDescT seen through Slurm's job_desc names for job_submit plugins.
#include "ctld/jobs/job_submit_hook.hpp"

#include <spdlog/spdlog.h>

#include <cstring>
#include <functional>
#include <algorithm>
#include <optional>

#include <drover/plugin.h>

#include "common/ascii.hpp"
#include "common/timefmt.hpp"

// The description a plugin works on: the request, who sends it, the user messages so far, and
// the text last handed out (borrowed by the plugin until its next call).
struct drover_job_desc {
    drover::proto::JobDescT *d;
    uint32_t uid, gid; // as the credential says, not the request
    const std::string *user_name;
    std::string user_msg;
    std::string scratch;
};

namespace drover::ctld {

namespace {

using D = proto::JobDescT;
// Slurm's NO_VAL: what a script reads for a count or limit that was not given.
constexpr int64_t kNoVal = 0xfffffffe;

// One job_desc field. A string field reads nil when empty; a count reads NO_VAL when 0 (Drover's
// "not given"), and NO_VAL written clears it.
struct Field {
    const char *name;
    std::string D::*text = nullptr;
    uint32_t D::*count = nullptr;                                                    // 0: not given
    std::function<std::optional<int64_t>(const drover_job_desc &)> number = nullptr; // read only
    int64_t D::*wide = nullptr;                                                      // as is
};

const Field kFields[] = {
    {"account", &D::account},
    {"array_inx", &D::array},
    {"begin_time", nullptr, nullptr, nullptr, &D::begin_time},
    {"comment", &D::comment},
    {"cpus_per_task", nullptr, &D::cpus_per_task},
    {"dependency", &D::dependency},
    {"exc_nodes", &D::exc_nodes},
    {"features", &D::constraint},
    {"gres", &D::gres},
    {"group_id", nullptr, nullptr, [](const drover_job_desc &j) { return int64_t(j.gid); }},
    {"licenses", &D::licenses},
    {"max_nodes", nullptr, &D::max_nodes},
    {"min_nodes", nullptr, &D::min_nodes},
    {"name", &D::name},
    {"nice", nullptr, nullptr, [](const drover_job_desc &j) { return int64_t(j.d->nice); }},
    {"ntasks_per_node", nullptr, &D::ntasks_per_node},
    {"num_tasks", nullptr, &D::num_tasks},
    {"partition", &D::partition},
    {"qos", &D::qos},
    {"req_nodes", &D::req_nodes},
    {"reservation", &D::reservation},
    {"script", nullptr, nullptr, nullptr}, // read below: the script is kept as sent
    {"std_err", &D::std_err},
    {"std_in", &D::std_in},
    {"std_out", &D::std_out},
    {"time_limit", nullptr, &D::time_limit_min},
    {"user_id", nullptr, nullptr, [](const drover_job_desc &j) { return int64_t(j.uid); }},
    {"user_name", nullptr, nullptr, nullptr},
    {"work_dir", &D::work_dir},
};

const Field *find(const char *name) {
    if (!name) return nullptr;
    for (const Field &f : kFields)
        if (std::strcmp(f.name, name) == 0) return &f;
    return nullptr;
}

uint32_t host_field_count() {
    return uint32_t(std::size(kFields));
}
const char *host_field_name(uint32_t i) {
    return i < std::size(kFields) ? kFields[i].name : nullptr;
}

int read_text(drover_job_desc *j, const std::string &v, uint32_t *kind, drover_str *text) {
    *kind = v.empty() ? DROVER_FIELD_NIL : DROVER_FIELD_STRING;
    j->scratch = v;
    *text = {j->scratch.data(), j->scratch.size()};
    return DROVER_OK;
}

int host_get(drover_job_desc *j, const char *name, uint32_t *kind, int64_t *number,
             drover_str *text) {
    const Field *f = find(name);
    if (!f) return DROVER_ENOENT;
    *kind = DROVER_FIELD_NIL;
    if (f->text) return read_text(j, j->d->*f->text, kind, text);
    if (std::strcmp(name, "script") == 0) return read_text(j, j->d->script, kind, text);
    if (std::strcmp(name, "user_name") == 0) return read_text(j, *j->user_name, kind, text);
    *kind = DROVER_FIELD_NUMBER;
    if (f->count) {
        const uint32_t v = j->d->*f->count;
        // time_limit's "not given" is NO_VAL already; the counts' is 0.
        *number = (v == 0 && f->count != &D::time_limit_min) ? kNoVal : int64_t(v);
    } else if (f->wide) {
        *number = j->d->*f->wide;
    } else {
        *number = f->number(*j).value_or(kNoVal);
    }
    return DROVER_OK;
}

int host_set_number(drover_job_desc *j, const char *name, int64_t v) {
    const Field *f = find(name);
    if (!f) return DROVER_ENOENT;
    if (f->text) return DROVER_EINVAL;
    if (std::strcmp(name, "nice") == 0) {
        if (v < -2147483645 || v > 2147483645) return DROVER_EINVAL;
        j->d->nice = int32_t(v);
        return DROVER_OK;
    }
    if (f->wide) {
        j->d->*f->wide = v;
        return DROVER_OK;
    }
    if (!f->count) return DROVER_EPERM;
    if (v < 0 || v > 0xffffffffLL) return DROVER_EINVAL;
    const bool unset = v == kNoVal && f->count != &D::time_limit_min;
    j->d->*f->count = unset ? 0u : uint32_t(v);
    return DROVER_OK;
}

int host_set_text(drover_job_desc *j, const char *name, const char *v) {
    const Field *f = find(name);
    if (!f) return DROVER_ENOENT;
    if (!f->text)
        return f->count || f->wide || std::strcmp(name, "nice") == 0 ? DROVER_EINVAL : DROVER_EPERM;
    j->d->*f->text = v ? v : "";
    return DROVER_OK;
}

void host_user_msg(drover_job_desc *j, const char *text) {
    if (!text) return;
    if (!j->user_msg.empty()) j->user_msg += "\n";
    j->user_msg += text;
}

// A plugin's refusal as the submitter sees it: its own words, else its user messages, else
// Slurm's "Unspecified error"; logged with what was refused.
Status refused(const plugin::JobSubmitCalls &p, const Status &s, const drover_job_desc &desc,
               const std::string &what) {
    const std::string &why = !s.text().empty() ? s.text() : desc.user_msg;
    spdlog::info("[{}] refused {}: {}", p.id(), what, why);
    return Status(DROVER_EINVAL, why.empty() ? "Unspecified error" : why);
}

const drover_job_submit_host kHost = {sizeof(drover_job_submit_host),
                                      host_field_count,
                                      host_field_name,
                                      host_get,
                                      host_set_number,
                                      host_set_text,
                                      host_user_msg};

} // namespace

Status run_job_submit(const std::vector<plugin::JobSubmitCalls> &plugins, proto::JobDescT &d,
                      uint32_t uid, uint32_t gid, const std::string &user_name,
                      std::string *user_msg) {
    drover_job_desc desc{&d, uid, gid, &user_name, {}, {}};
    for (const plugin::JobSubmitCalls &p : plugins) {
        Status s = p.job_submit(kHost, &desc, uid);
        if (s.ok()) continue;
        return refused(p, s, desc, "a job of uid " + std::to_string(uid));
    }
    if (user_msg) *user_msg = std::move(desc.user_msg);
    return {};
}

namespace {

// One update key as a job_desc field: its keys (lower case, the first is the one sent back), and
// how its text goes into the description and comes back.
struct UpdateKey {
    std::vector<std::string> keys;
    std::function<void(D &, const std::string &)> in;
    std::function<std::string(const D &)> out;
};

std::string limit_text(uint32_t m) {
    return m == kInfinite ? "UNLIMITED" : m == kNoVal ? std::string() : std::to_string(m);
}

const std::vector<UpdateKey> &update_keys() {
    static const std::vector<UpdateKey> keys = {
        {{"timelimit"},
         [](D &d, const std::string &v) { d.time_limit_min = parse_time_limit(v); },
         [](const D &d) { return limit_text(d.time_limit_min); }},
        {{"name", "jobname"},
         [](D &d, const std::string &v) { d.name = v; },
         [](const D &d) { return d.name; }},
        {{"comment"},
         [](D &d, const std::string &v) { d.comment = v; },
         [](const D &d) { return d.comment; }},
        {{"nice"},
         [](D &d, const std::string &v) { d.nice = std::stoi(v); },
         [](const D &d) { return std::to_string(d.nice); }},
        {{"features", "constraint", "constraints"},
         [](D &d, const std::string &v) { d.constraint = v; },
         [](const D &d) { return d.constraint; }},
        {{"partition"},
         [](D &d, const std::string &v) { d.partition = v; },
         [](const D &d) { return d.partition; }},
        {{"numnodes"},
         [](D &d, const std::string &v) { d.min_nodes = uint32_t(std::stoul(v)); },
         [](const D &d) { return d.min_nodes ? std::to_string(d.min_nodes) : std::string(); }},
        {{"dependency"},
         [](D &d, const std::string &v) { d.dependency = v; },
         [](const D &d) { return d.dependency; }},
    };
    return keys;
}

const UpdateKey *update_key(const std::string &key) {
    const std::string k = ascii_lower(key);
    for (const UpdateKey &u : update_keys())
        for (const auto &name : u.keys)
            if (k == name) return &u;
    return nullptr;
}

} // namespace

Status run_job_modify(const std::vector<plugin::JobSubmitCalls> &plugins, UpdateFields &fields,
                      uint32_t job_id, uint32_t uid, uint32_t gid, const std::string &user_name) {
    if (plugins.empty()) return {};
    D d;
    try {
        for (const auto &[key, value] : fields)
            if (const UpdateKey *u = update_key(key)) u->in(d, value);
    } catch (const std::exception &) {
        return {}; // the update's own check refuses the value, with its words
    }
    const D before = d;
    drover_job_desc desc{&d, uid, gid, &user_name, {}, {}};
    for (const plugin::JobSubmitCalls &p : plugins) {
        Status s = p.job_modify(kHost, &desc, job_id, uid);
        if (s.ok()) continue;
        return refused(p, s, desc, "an update of job " + std::to_string(job_id));
    }
    for (const UpdateKey &u : update_keys()) {
        const std::string now = u.out(d);
        if (now == u.out(before)) continue;
        auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const auto &f) { return update_key(f.first) == &u; });
        if (it != fields.end())
            it->second = now;
        else
            fields.emplace_back(u.keys.front(), now);
    }
    return {};
}

std::vector<std::string> job_desc_field_names() {
    std::vector<std::string> out;
    for (const Field &f : kFields) out.emplace_back(f.name);
    return out;
}

} // namespace drover::ctld
