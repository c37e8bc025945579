/**
 * The status page, a capability on the management HTTP port: the static page ({@code GET /status}), its data as JSON
 * ({@code /status/api/outbounds}, and {@code /status/api/<part>} for each capability part with a panel) and a live
 * stream of server-sent events ({@code /status/api/stream}) that sends each client, a few times a second at most, only
 * what changed in the page of outbounds it shows, and the parts as they change. The data follows the read rules of
 * the gRPC API ({@code observatory.api.auth}); the page holds the RTT history the observation does not keep.
 */
@NullMarked
package io.observatory.page;

import org.jspecify.annotations.NullMarked;
