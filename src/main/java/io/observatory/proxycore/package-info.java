/**
 * The supervised proxy core ({@code observatory.core}): every outbound of the operator's own Xray or v2ray
 * configuration probed through itself, by a separate core process Observatory configures, starts and supervises, with
 * one loopback SOCKS inbound per outbound.
 */
@NullMarked
package io.observatory.proxycore;

import org.jspecify.annotations.NullMarked;
