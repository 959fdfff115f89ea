// peers.cpp - finding this controller among the SlurmctldHost lines, and pinging the others.
#include "ctld/control/peers.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdexcept>

#include "daemon/daemon.hpp"

namespace drover::ctld {

namespace {

bool local_address(const std::string &addr) {
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0) return false;
    bool found = false;
    for (ifaddrs *a = list; a && !found; a = a->ifa_next) {
        if (!a->ifa_addr) continue;
        char buf[INET6_ADDRSTRLEN] = {};
        if (a->ifa_addr->sa_family == AF_INET)
            ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in *>(a->ifa_addr)->sin_addr, buf,
                        sizeof buf);
        else if (a->ifa_addr->sa_family == AF_INET6)
            ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6 *>(a->ifa_addr)->sin6_addr, buf,
                        sizeof buf);
        found = addr == buf;
    }
    ::freeifaddrs(list);
    return found;
}

} // namespace

std::size_t self_index(const Config &conf, const std::string &name) {
    const auto &cs = conf.controllers;
    if (!name.empty()) {
        for (std::size_t i = 0; i < cs.size(); ++i)
            if (cs[i].name == name) return i;
        throw std::runtime_error("--controller " + name + ": no SlurmctldHost of that name in " +
                                 conf.path);
    }
    if (cs.size() <= 1) return 0;
    for (std::size_t i = 0; i < cs.size(); ++i)
        if (!cs[i].addr.empty() && local_address(cs[i].addr)) return i;
    std::string host = daemon::short_hostname();
    for (std::size_t i = 0; i < cs.size(); ++i)
        if (cs[i].name == host) return i;
    return 0;
}

std::string state_dir(const Config &conf, std::size_t self) {
    if (self == 0 || self >= conf.controllers.size()) return conf.state_save_location;
    std::string name = conf.controllers[self].name;
    std::replace(name.begin(), name.end(), '/', '_'); // a name is one path component
    return conf.state_save_location + "/backup." + name;
}

PeerStatus ping_peer(const Config &conf, std::size_t i, const net::Signer &sign, int timeout_ms) {
    PeerStatus st;
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ControllerPingRequest,
                                    proto::CreateControllerPingRequest(fbb).Union()));
    try {
        net::Reply r = net::call(peer_addr(conf, i), conf.slurmctld_port, conf.controllers[i].name,
                                 {fbb.GetBufferPointer(), fbb.GetSize()}, sign, timeout_ms);
        const auto *p = r.as<proto::ControllerPingResponse>();
        st.up = true;
        st.active = p->role() && p->role()->str() == kRoleActive;
        st.epoch = p->epoch();
    } catch (const std::exception &) {}
    return st;
}

std::vector<PeerStatus> ping_others(const Config &conf, std::size_t self, const net::Signer &sign,
                                    int timeout_ms) {
    std::vector<PeerStatus> st(conf.controllers.size());
    for (std::size_t i = 0; i < st.size(); ++i)
        if (i != self) st[i] = ping_peer(conf, i, sign, timeout_ms);
    return st;
}

} // namespace drover::ctld
