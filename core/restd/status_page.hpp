// status_page.hpp - drover-restd's read-only status page (--status-page): one HTML document
// whose script reads the REST paths with the visitor's token, as any client does. It holds no
// data itself, so serving it needs no token; nothing it shows is fetched without one.
#pragma once

namespace drover::restd {

// The page: partitions, a grid of the nodes coloured by state (a drained node shows its reason),
// the queue with filters, a job's detail with its steps (#job=ID) and the jobs that ended in the
// last hour as a chart; it refreshes itself every two seconds.
const char *status_page_html();

} // namespace drover::restd
