// pmi_server.cpp - the PMI-1 and PMI-2 server engine of one step on one node.
#include "common/pmi_server.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "common/pmi_wire.hpp"

namespace drover::pmi {

namespace {

using Attrs = std::vector<std::pair<std::string, std::string>>;

// Keys a node's tasks may put between two fences (a few per rank is the norm): what a fence
// carries stays within srun's frame limit.
constexpr std::size_t kMaxPutsPerFence = 65536;

struct Channel {
    std::string in;     // bytes not yet read as a request
    int version = 1;    // the wire: 1 until an init asks for 2
    bool spoke = false; // sent a request (so its closing early is a death)
    bool finalized = false;
    bool in_fence = false;
    std::vector<std::string> awaited_attrs; // info-getnodeattr with wait=TRUE, in order
};

std::optional<long> number(const std::optional<std::string> &v) {
    if (!v || v->empty()) return std::nullopt;
    char *end = nullptr;
    long n = std::strtol(v->c_str(), &end, 10);
    if (*end) return std::nullopt;
    return n;
}

} // namespace

struct Server::Impl {
    StepInfo info;
    Host host;
    std::map<uint32_t, Channel> channels; // the ranks on this node
    std::map<std::string, std::string> kvs;
    std::map<std::string, std::string> unfenced; // put here since the last fence
    std::map<std::string, std::string> node_attrs;
    uint32_t entered = 0;
    bool exchanging = false;
    uint64_t fences = 0;

    void reply(uint32_t rank, Channel &c, std::string_view name, Attrs attrs);
    void fail(uint32_t rank, Channel &c, std::string_view name, const std::string &why);
    void handle(uint32_t rank, Channel &c, const Command &cmd);
    bool handle_v1(uint32_t rank, Channel &c, const Command &cmd);
    bool handle_v2(uint32_t rank, Channel &c, const Command &cmd);
    void init(uint32_t rank, Channel &c, const Command &cmd);
    void put(uint32_t rank, Channel &c, std::string_view reply_name, const Command &cmd);
    void get(uint32_t rank, Channel &c, const Command &cmd);
    void job_attr(uint32_t rank, Channel &c, const Command &cmd);
    void node_attr_put(uint32_t rank, Channel &c, const Command &cmd);
    void node_attr_get(uint32_t rank, Channel &c, const Command &cmd);
    void abort(uint32_t rank, Channel &c, const Command &cmd);
    void enter_fence(Channel &c);
    void maybe_exchange();
    void finish_fence(bool ok);
    uint32_t expected_in_fence() const;
};

void Server::Impl::reply(uint32_t rank, Channel &c, std::string_view name, Attrs attrs) {
    attrs.insert(attrs.begin(), {"rc", "0"});
    host.send(rank, c.version == 2 ? write_v2(name, attrs) : write_v1(name, attrs));
}

// An error reply: PMI-1 messages cannot hold spaces, PMI-2 calls the message errmsg.
void Server::Impl::fail(uint32_t rank, Channel &c, std::string_view name, const std::string &why) {
    if (c.version == 2) return host.send(rank, write_v2(name, {{"rc", "-1"}, {"errmsg", why}}));
    std::string msg = why;
    std::replace(msg.begin(), msg.end(), ' ', '_');
    host.send(rank, write_v1(name, {{"rc", "-1"}, {"msg", msg}}));
}

void Server::Impl::init(uint32_t rank, Channel &c, const Command &cmd) {
    auto version = number(cmd.get("pmi_version"));
    auto sub = number(cmd.get("pmi_subversion"));
    if (version == 2) {
        // The reply still goes on the PMI-1 wire; what follows is PMI-2.
        host.send(rank, write_v1("response_to_init",
                                 {{"rc", "0"}, {"pmi_version", "2"}, {"pmi_subversion", "0"}}));
        c.version = 2;
        return;
    }
    if (version == 1 && sub && *sub >= 1)
        return reply(rank, c, "response_to_init", {{"pmi_version", "1"}, {"pmi_subversion", "1"}});
    host.send(rank, write_v1("response_to_init", {{"rc", "-1"},
                                                  {"pmi_version", "1"},
                                                  {"pmi_subversion", "1"},
                                                  {"msg", "unsupported_PMI_version"}}));
}

void Server::Impl::put(uint32_t rank, Channel &c, std::string_view reply_name, const Command &cmd) {
    auto key = cmd.get("key");
    auto value = cmd.get("value");
    if (!key || key->empty() || !value)
        return fail(rank, c, reply_name, "put needs a key and a value");
    if (key->size() > kKeyMax) return fail(rank, c, reply_name, "key longer than 64 bytes");
    if (value->size() > kValueMax) return fail(rank, c, reply_name, "value longer than 1024 bytes");
    // A PMI-1 reply cannot carry one: it would read as more attributes.
    if (c.version == 1 && value->find_first_of(" \n") != std::string::npos)
        return fail(rank, c, reply_name, "value holds a blank");
    auto kvsname = cmd.get("kvsname");
    if (c.version == 1 && kvsname && *kvsname != info.kvsname)
        return fail(rank, c, reply_name, "no KVS named " + *kvsname);
    if (unfenced.size() >= kMaxPutsPerFence && !unfenced.count(*key))
        return fail(rank, c, reply_name, "too many keys before a fence");
    unfenced[*key] = *value;
    reply(rank, c, reply_name, {});
}

void Server::Impl::get(uint32_t rank, Channel &c, const Command &cmd) {
    std::string_view name = c.version == 2 ? "kvs-get-response" : "get_result";
    auto key = cmd.get("key");
    if (!key) return fail(rank, c, name, "get needs a key");
    // A task sees its node's keys before the fence too.
    const std::string *value = nullptr;
    if (auto it = kvs.find(*key); it != kvs.end()) value = &it->second;
    if (auto it = unfenced.find(*key); !value && it != unfenced.end()) value = &it->second;
    if (c.version == 2)
        return reply(rank, c, name,
                     {{"found", value ? "TRUE" : "FALSE"}, {"value", value ? *value : ""}});
    if (!value) return fail(rank, c, name, "key " + *key + " not found");
    reply(rank, c, name, {{"value", *value}});
}

// PMI-2's job attributes: the process mapping and the universe size.
void Server::Impl::job_attr(uint32_t rank, Channel &c, const Command &cmd) {
    auto key = cmd.get("key").value_or("");
    std::optional<std::string> value;
    if (key == "PMI_process_mapping") value = info.process_mapping;
    if (key == "universeSize") value = std::to_string(info.size);
    reply(rank, c, "info-getjobattr-response",
          {{"found", value ? "TRUE" : "FALSE"}, {"value", value.value_or("")}});
}

void Server::Impl::node_attr_put(uint32_t rank, Channel &c, const Command &cmd) {
    auto key = cmd.get("key");
    auto value = cmd.get("value");
    if (!key || !value)
        return fail(rank, c, "info-putnodeattr-response", "needs a key and a value");
    node_attrs[*key] = *value;
    reply(rank, c, "info-putnodeattr-response", {});
    // Tasks here waiting for it get it now.
    for (auto &[r, other] : channels) {
        auto &w = other.awaited_attrs;
        auto n = std::count(w.begin(), w.end(), *key);
        std::erase(w, *key);
        for (long i = 0; i < n; ++i)
            reply(r, other, "info-getnodeattr-response", {{"found", "TRUE"}, {"value", *value}});
    }
}

void Server::Impl::node_attr_get(uint32_t rank, Channel &c, const Command &cmd) {
    auto key = cmd.get("key").value_or("");
    auto it = node_attrs.find(key);
    if (it != node_attrs.end())
        return reply(rank, c, "info-getnodeattr-response",
                     {{"found", "TRUE"}, {"value", it->second}});
    if (cmd.get("wait") == "TRUE") return c.awaited_attrs.push_back(key);
    reply(rank, c, "info-getnodeattr-response", {{"found", "FALSE"}});
}

void Server::Impl::abort(uint32_t rank, Channel &c, const Command &cmd) {
    auto code = number(cmd.get("exitcode"));
    if (!code) code = number(cmd.get("exit_code"));
    std::string msg = cmd.get("msg").value_or(cmd.get("error_msg").value_or(""));
    c.finalized = true; // its channel closing next is no second abort
    host.abort(rank, int(code.value_or(1)), msg);
}

uint32_t Server::Impl::expected_in_fence() const {
    uint32_t n = 0;
    for (const auto &[r, c] : channels) n += c.finalized ? 0 : 1;
    return n;
}

void Server::Impl::enter_fence(Channel &c) {
    if (c.in_fence || c.finalized) return;
    c.in_fence = true;
    ++entered;
    maybe_exchange();
}

// Every task still expected has entered the fence: this node's keys go out.
void Server::Impl::maybe_exchange() {
    if (exchanging || entered == 0 || entered < expected_in_fence()) return;
    exchanging = true;
    std::string blob = encode_kvs(unfenced);
    for (auto &[k, v] : unfenced) kvs[k] = std::move(v);
    unfenced.clear();
    host.fence(std::move(blob)); // may call fence_done() before it returns
}

void Server::Impl::finish_fence(bool ok) {
    exchanging = false;
    entered = 0;
    if (ok) ++fences;
    for (auto &[r, c] : channels) {
        if (!c.in_fence) continue;
        c.in_fence = false;
        std::string_view name = c.version == 2 ? "kvs-fence-response" : "barrier_out";
        if (ok)
            reply(r, c, name, {});
        else
            fail(r, c, name, "the fence's exchange between nodes failed");
    }
}

// PMI-1 requests; false for a name it does not know.
bool Server::Impl::handle_v1(uint32_t rank, Channel &c, const Command &cmd) {
    const std::string &n = cmd.name;
    if (n == "get_maxes")
        reply(rank, c, "maxes",
              {{"kvsname_max", std::to_string(kKvsNameMax)},
               {"keylen_max", std::to_string(kKeyMax)},
               {"vallen_max", std::to_string(kValueMax)}});
    else if (n == "get_universe_size")
        reply(rank, c, "universe_size", {{"size", std::to_string(info.size)}});
    else if (n == "get_appnum")
        reply(rank, c, "appnum", {{"appnum", std::to_string(info.appnum)}});
    else if (n == "get_my_kvsname")
        reply(rank, c, "my_kvsname", {{"kvsname", info.kvsname}});
    else if (n == "put")
        put(rank, c, "put_result", cmd);
    else if (n == "get")
        get(rank, c, cmd);
    else if (n == "barrier_in")
        enter_fence(c);
    else if (n == "publish_name" || n == "unpublish_name" || n == "lookup_name")
        fail(rank, c, n.substr(0, n.find('_')) + "_result", "name service not supported");
    else if (n == "spawn")
        fail(rank, c, "spawn_result", "spawn not supported");
    else
        return false;
    return true;
}

// PMI-2 requests; false for a name it does not know.
bool Server::Impl::handle_v2(uint32_t rank, Channel &c, const Command &cmd) {
    const std::string &n = cmd.name;
    if (n == "fullinit") {
        auto asked = number(cmd.get("pmirank"));
        if (asked && *asked != long(rank))
            return fail(rank, c, "fullinit-response", "pmirank is not this task's rank"), true;
        reply(rank, c, "fullinit-response",
              {{"pmi-version", "2"},
               {"pmi-subversion", "0"},
               {"rank", std::to_string(rank)},
               {"size", std::to_string(info.size)},
               {"appnum", std::to_string(info.appnum)},
               {"spawner-jobid", ""},
               {"debugged", "FALSE"},
               {"pmiverbose", "FALSE"}});
    } else if (n == "job-getid") {
        reply(rank, c, "job-getid-response", {{"jobid", info.kvsname}});
    } else if (n == "kvs-put") {
        put(rank, c, "kvs-put-response", cmd);
    } else if (n == "kvs-get") {
        get(rank, c, cmd);
    } else if (n == "kvs-fence") {
        enter_fence(c);
    } else if (n == "info-getjobattr") {
        job_attr(rank, c, cmd);
    } else if (n == "info-putnodeattr") {
        node_attr_put(rank, c, cmd);
    } else if (n == "info-getnodeattr") {
        node_attr_get(rank, c, cmd);
    } else if (n == "name-publish" || n == "name-unpublish" || n == "name-lookup" || n == "spawn" ||
               n == "job-connect" || n == "job-disconnect") {
        fail(rank, c, n + "-response", n + " not supported");
    } else {
        return false;
    }
    return true;
}

void Server::Impl::handle(uint32_t rank, Channel &c, const Command &cmd) {
    c.spoke = true;
    if (cmd.name == "init") return init(rank, c, cmd);
    if (cmd.name == "finalize") {
        c.finalized = true;
        maybe_exchange(); // it is no longer expected in a fence
        if (c.version == 2) return reply(rank, c, "finalize-response", {});
        return reply(rank, c, "finalize_ack", {});
    }
    if (cmd.name == "abort") return abort(rank, c, cmd);
    if (c.version == 2 ? handle_v2(rank, c, cmd) : handle_v1(rank, c, cmd)) return;
    fail(rank, c, cmd.name + (c.version == 2 ? "-response" : "_result"),
         "unknown command " + cmd.name);
}

bool Server::feed(uint32_t rank, std::string_view bytes) {
    auto &I = *impl_;
    auto it = I.channels.find(rank);
    if (it == I.channels.end()) return false;
    Channel &c = it->second;
    c.in.append(bytes);
    std::size_t at = 0;
    for (;;) {
        Read r = c.version == 2 ? read_v2(std::string_view(c.in).substr(at))
                                : read_v1(std::string_view(c.in).substr(at));
        if (r.kind == Read::incomplete) break;
        at += r.used;
        if (r.kind == Read::malformed) {
            I.fail(rank, c, c.version == 2 ? "error-response" : "error", r.why);
            c.in.clear();
            return false;
        }
        I.handle(rank, c, r.cmd);
    }
    c.in.erase(0, at);
    return true;
}

Server::Server(StepInfo info, Host host) : impl_(std::make_unique<Impl>()) {
    impl_->info = std::move(info);
    impl_->host = std::move(host);
    for (uint32_t r : impl_->info.local) impl_->channels[r];
    impl_->kvs["PMI_process_mapping"] = impl_->info.process_mapping;
}

Server::~Server() = default;

uint64_t Server::fences() const {
    return impl_->fences;
}

bool Server::fence_done(std::string_view all) {
    auto &I = *impl_;
    if (!I.exchanging) return false;
    bool ok = decode_kvs(all, I.kvs);
    I.finish_fence(ok);
    return ok;
}

void Server::closed(uint32_t rank) {
    auto &I = *impl_;
    auto it = I.channels.find(rank);
    if (it == I.channels.end()) return;
    Channel &c = it->second;
    bool died = c.spoke && !c.finalized;
    c.finalized = true; // no longer expected in a fence
    if (c.in_fence) c.in_fence = false, --I.entered;
    if (died) return I.host.abort(rank, -1, "");
    // A task that never spoke PMI (not an MPI program) no longer holds up the others' fence.
    I.maybe_exchange();
}

} // namespace drover::pmi
