// step_tool.cpp - exercises job step credentials (step_cred_test.sh) and forwarded requests
// (tree_step_test.sh). It asks the controller for a step as the calling user and keeps the
// answer in a file, then launches with it (as whoever runs the launch), optionally with its
// signature forged. Prints "launched" or the node's refusal.
//
//   step_tool create JOBID FILE
//   step_tool launch FILE [forge]
//   step_tool launch-bcast JOBID       (a launch under sbcast's broadcast credential)
//   step_tool bcast-with FILE DEST     (a file broadcast under a step's launch credential)
//
// and sends requests down the fan-out tree as the calling user, acting for ORIGIN_UID ("-": the
// caller itself), printing each node's result ("NODE RC MESSAGE"):
//
//   step_tool forward NODES ORIGIN_UID kill JOBID               (a JobKillRequest, admin-only)
//   step_tool forward NODES ORIGIN_UID signal JOBID STEPID SIG  (a StepSignalRequest)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "common/hostlist.hpp"
#include "net/client.hpp"
#include "net/fanout.hpp"

using namespace drover;

namespace {

int create(uint32_t job, const char *file) {
    Config conf = load_config(find_config_path(std::nullopt));
    flatbuffers::FlatBufferBuilder fbb(256);
    auto name = fbb.CreateString("cred-test");
    proto::StepCreateRequestBuilder b(fbb);
    b.add_job_id(job);
    b.add_name(name);
    b.add_num_tasks(1);
    b.add_exact(true);
    b.add_overlap(true); // beside whatever the job already runs
    auto body = b.Finish();
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepCreateRequest, body.Union()));
    try {
        net::Reply r = net::call_controller(conf, {fbb.GetBufferPointer(), fbb.GetSize()},
                                            net::socket_signer(conf));
        r.as<proto::StepCreateResponse>();
        std::ofstream(file, std::ios::binary)
            .write(reinterpret_cast<const char *>(r.bytes.data()), std::streamsize(r.bytes.size()));
        std::printf("created\n");
        return 0;
    } catch (const std::exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
}

// The StepCreateResponse create saved in file (the reply's message as it came, read into
// bytes); nullptr when it is not one.
const proto::StepCreateResponse *read_created(const char *file, std::vector<uint8_t> &bytes) {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const proto::Message *m = nullptr;
    if (!proto::verify_message(bytes, proto::Body::StepCreateResponse, &m).empty()) return nullptr;
    return m->body_as_StepCreateResponse();
}

// Sends a StepLaunchRequest for `true` with cred to node at addr ("host:port"); prints
// "launched" or the node's refusal.
int send_launch(const Config &conf, const std::vector<uint8_t> &cred, const std::string &node,
                const std::string &addr) {
    flatbuffers::FlatBufferBuilder fbb(1024);
    std::vector<std::string> argv{"true"};
    std::vector<uint32_t> tasks{0}, counts{1};
    std::string key(32, 'k');
    auto req = proto::CreateStepLaunchRequest(
        fbb, fbb.CreateVector(cred), fbb.CreateVectorOfStrings(argv), 0, fbb.CreateString("/tmp"),
        1, fbb.CreateString("1"), fbb.CreateString("127.0.0.1"), 1,
        fbb.CreateVector(reinterpret_cast<const uint8_t *>(key.data()), key.size()), 0, 0, 0, false,
        1, 0, false, 0, fbb.CreateVector(tasks), fbb.CreateVector(counts));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepLaunchRequest, req.Union()));
    try {
        net::call(addr.substr(0, addr.rfind(':')),
                  uint16_t(std::stoi(addr.substr(addr.rfind(':') + 1))), node,
                  {fbb.GetBufferPointer(), fbb.GetSize()}, net::socket_signer(conf))
            .as<proto::StepLaunchResponse>();
        std::printf("launched\n");
        return 0;
    } catch (const std::exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
}

int launch(const char *file, bool forge) {
    Config conf = load_config(find_config_path(std::nullopt));
    std::vector<uint8_t> bytes;
    const auto *resp = read_created(file, bytes);
    if (!resp) return std::printf("bad file\n"), 2;
    std::vector<uint8_t> cred(resp->cred()->begin(), resp->cred()->end());
    if (forge) {
        // What the credential grants, changed (one more CPU), under the controller's signature.
        const auto *sc = flatbuffers::GetRoot<proto::SignedCred>(cred.data());
        // The nested body is only 4-byte aligned in its vector: read from an 8-byte aligned copy
        // (its 64-bit fields read in place would be misaligned, as the node daemon also avoids).
        std::vector<uint64_t> words((sc->body()->size() + 7) / 8);
        std::memcpy(words.data(), sc->body()->data(), sc->body()->size());
        const auto *c = flatbuffers::GetRoot<proto::StepCred>(words.data());
        flatbuffers::FlatBufferBuilder b(1024);
        std::vector<std::string> nodes;
        for (const auto *n : *c->nodes()) nodes.push_back(n->str());
        std::vector<uint32_t> cpus(c->cpus_per_node()->begin(), c->cpus_per_node()->end());
        cpus[0] += 1;
        std::vector<uint64_t> mem;
        if (c->mem_per_node_mb())
            mem.assign(c->mem_per_node_mb()->begin(), c->mem_per_node_mb()->end());
        auto nv = b.CreateVectorOfStrings(nodes);
        auto cv = b.CreateVector(cpus);
        auto mv = b.CreateVector(mem);
        auto user = b.CreateString(c->user_name() ? c->user_name()->str() : "");
        proto::StepCredBuilder cb(b);
        cb.add_job_id(c->job_id());
        cb.add_step_id(c->step_id());
        cb.add_uid(c->uid());
        cb.add_gid(c->gid());
        cb.add_user_name(user);
        cb.add_nodes(nv);
        cb.add_cpus_per_node(cv);
        cb.add_mem_per_node_mb(mv);
        cb.add_expires(c->expires());
        cb.add_time_limit_min(c->time_limit_min());
        b.Finish(cb.Finish());
        flatbuffers::FlatBufferBuilder w(2048);
        auto body = w.CreateVector(b.GetBufferPointer(), b.GetSize());
        auto sig = w.CreateVector(sc->sig()->data(), sc->sig()->size());
        w.Finish(proto::CreateSignedCred(w, body, sig));
        cred.assign(w.GetBufferPointer(), w.GetBufferPointer() + w.GetSize());
    }
    return send_launch(conf, cred, resp->nodes()->Get(0)->str(), resp->node_addrs()->Get(0)->str());
}

// A broadcast credential for job (sbcast's), used for what it is not for: a step launch.
int launch_with_bcast(uint32_t job) {
    Config conf = load_config(find_config_path(std::nullopt));
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::BcastCredRequest,
                                    proto::CreateBcastCredRequest(fbb, job).Union()));
    try {
        net::Reply r = net::call_controller(conf, {fbb.GetBufferPointer(), fbb.GetSize()},
                                            net::socket_signer(conf));
        const auto *g = r.as<proto::BcastCredResponse>();
        std::vector<uint8_t> cred(g->cred()->begin(), g->cred()->end());
        return send_launch(conf, cred, g->nodes()->Get(0)->str(), g->node_addrs()->Get(0)->str());
    } catch (const std::exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
}

// A step's launch credential (from FILE, as create saved it), used for a file broadcast to dest.
int bcast_with_step_cred(const char *file, const std::string &dest) {
    Config conf = load_config(find_config_path(std::nullopt));
    std::vector<uint8_t> bytes;
    const auto *resp = read_created(file, bytes);
    if (!resp) return std::printf("bad file\n"), 2;
    flatbuffers::FlatBufferBuilder fbb(1024);
    auto cred = fbb.CreateVector(resp->cred()->data(), resp->cred()->size());
    auto d = fbb.CreateString(dest);
    auto data = fbb.CreateVector(std::vector<uint8_t>{'x'});
    proto::FileBcastRequestBuilder b(fbb);
    b.add_cred(cred);
    b.add_dest(d);
    b.add_block_no(1);
    b.add_data(data);
    b.add_last(true);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::FileBcastRequest, b.Finish().Union()));
    std::string addr = resp->node_addrs()->Get(0)->str();
    try {
        net::call(addr.substr(0, addr.rfind(':')),
                  uint16_t(std::stoi(addr.substr(addr.rfind(':') + 1))),
                  resp->nodes()->Get(0)->str(), {fbb.GetBufferPointer(), fbb.GetSize()},
                  net::socket_signer(conf))
            .as<proto::OkResponse>();
        std::printf("written\n");
        return 0;
    } catch (const std::exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
}

// One ForwardRequest down the tree (width 3) from the first of nodes, carrying inner, acting for
// origin; prints "NODE RC MESSAGE" for each node of the aggregated reply, sorted by node.
int forward(const std::string &nodelist, const std::string &origin, std::vector<uint8_t> inner) {
    Config conf = load_config(find_config_path(std::nullopt));
    std::vector<std::string> nodes = hostlist_expand(nodelist);
    const NodeConf *first = nodes.empty() ? nullptr : conf.find_node(nodes.front());
    if (!first) return std::printf("unknown node list %s\n", nodelist.c_str()), 2;
    uint32_t origin_uid = origin == "-" ? net::kSenderOrigin : uint32_t(std::stoul(origin));
    auto msg = net::make_forward_request(nodes, 3, 20000, inner, origin_uid);
    try {
        net::Reply r = net::call(conf.node_addr(*first), conf.node_port(*first), first->name, msg,
                                 net::socket_signer(conf), 30000);
        const auto *fr = r.as<proto::ForwardResponse>();
        std::vector<std::string> lines;
        if (fr->results())
            for (const auto *n : *fr->results())
                lines.push_back((n->node() ? n->node()->str() : "?") + " " +
                                std::to_string(n->rc()) + " " +
                                (n->message() ? n->message()->str() : ""));
        std::sort(lines.begin(), lines.end());
        for (const auto &l : lines) std::printf("%s\n", l.c_str());
        return 0;
    } catch (const std::exception &e) {
        std::printf("refused: %s\n", e.what());
        return 1;
    }
}

std::vector<uint8_t> kill_request(uint32_t job) {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobKillRequest,
                                    proto::CreateJobKillRequest(fbb, job, 9, true).Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

std::vector<uint8_t> signal_request(uint32_t job, uint32_t step, int sig) {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::StepSignalRequest,
                             proto::CreateStepSignalRequest(fbb, job, step, sig, false).Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

} // namespace

int main(int argc, char **argv) {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "create" && argc == 4) return create(uint32_t(std::stoul(argv[2])), argv[3]);
    if (cmd == "launch" && argc >= 3)
        return launch(argv[2], argc > 3 && std::string(argv[3]) == "forge");
    if (cmd == "launch-bcast" && argc == 3) return launch_with_bcast(uint32_t(std::stoul(argv[2])));
    if (cmd == "bcast-with" && argc == 4) return bcast_with_step_cred(argv[2], argv[3]);
    if (cmd == "forward" && argc == 6 && std::string(argv[4]) == "kill")
        return forward(argv[2], argv[3], kill_request(uint32_t(std::stoul(argv[5]))));
    if (cmd == "forward" && argc == 8 && std::string(argv[4]) == "signal")
        return forward(argv[2], argv[3],
                       signal_request(uint32_t(std::stoul(argv[5])), uint32_t(std::stoul(argv[6])),
                                      std::stoi(argv[7])));
    std::fprintf(stderr, "usage: step_tool create JOBID FILE | launch FILE [forge] |\n"
                         "       launch-bcast JOBID | bcast-with FILE DEST |\n"
                         "       forward NODES ORIGIN_UID|- kill JOBID | forward NODES "
                         "ORIGIN_UID|- signal JOBID STEPID SIG\n");
    return 2;
}
