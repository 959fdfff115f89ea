// ctld_caller.cpp - a request to the controller in control, in the client's name.
#include "restd/ctld_caller.hpp"

namespace drover::restd {

net::Reply CtldCaller::call(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                            flatbuffers::Offset<void> body, const Identity &who) const {
    auto token = who.token.empty() ? 0 : fbb.CreateString(who.token);
    auto user = who.user.empty() ? 0 : fbb.CreateString(who.user);
    proto::MessageBuilder m(fbb);
    m.add_body_type(type);
    m.add_body(body);
    if (!who.token.empty()) m.add_token(token);
    if (!who.user.empty()) m.add_token_user(user);
    fbb.Finish(m.Finish());
    return net::call_controller(conf_, {fbb.GetBufferPointer(), fbb.GetSize()},
                                net::socket_signer(conf_), 30000);
}

} // namespace drover::restd
