package io.observatory.probe;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.proxy.HttpProxyHandler.HttpProxyConnectException;
import io.netty.handler.proxy.ProxyConnectException;
import io.observatory.text.GoDuration;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeError.Hop;
import io.observatory.probe.ProbeError.Kind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Turns the exception that ended a probe into a {@link ProbeError}. It walks the whole cause chain because the real
 * cause often hides below a generic one: a proxy that rejects credentials surfaces as an {@code SSLException} or a
 * closed connection with Netty's {@link ProxyConnectException} deeper down.
 */
final class ProbeErrorClassifier {

    private static final Pattern SOCKS_STATUS = Pattern.compile("(auth)?[sS]tatus: ([A-Z_]+)\\((\\d+)\\)");
    private static final Pattern SOCKS_AUTH_METHOD = Pattern.compile("unexpected authMethod: ([A-Z_]+)");
    private static final Pattern HTTP_STATUS = Pattern.compile("status: (\\d{3})");
    private static final int MAX_CAUSES = 6;
    /** The status Netty's HTTP proxy handler reports when the proxy's reply could not be decoded as HTTP. */
    private static final int UNDECODABLE_CONNECT_STATUS = 999;

    private ProbeErrorClassifier() {}

    /**
     * Classifies {@code error}.
     *
     * @param request the probe that failed
     * @param timer the probe's phase boundaries, which tell where a deadline struck
     * @param error what ended the probe (a {@link TimeoutException} when the probe's own deadline fired)
     */
    static ProbeError classify(ProbeRequest request, PhaseTimer timer, Throwable error) {
        Outbound outbound = request.outbound();
        List<Throwable> chain = causeChain(error);
        Hop firstHop = outbound.proxied() ? Hop.PROXY : Hop.TARGET;

        ProxyConnectException proxyError = find(chain, ProxyConnectException.class);
        if (proxyError != null) {
            return proxyFailure(request, proxyError, chain);
        }
        if (chain.get(0) instanceof TimeoutException) {
            return deadline(request, timer);
        }
        if (find(chain, UnknownHostException.class) != null || find(chain, UnresolvedAddressException.class) != null) {
            return error(request, Kind.DNS_FAILURE, firstHop, "cannot resolve " + hopName(request, firstHop), chain,
                    null);
        }
        if (find(chain, ConnectTimeoutException.class) != null) {
            return error(request, Kind.CONNECT_TIMEOUT, firstHop,
                    "connect to " + hopName(request, firstHop) + " timed out", chain, null);
        }
        boolean closed = find(chain, PrematureCloseException.class) != null
                || find(chain, PrematureChannelClosureException.class) != null
                || find(chain, ClosedChannelException.class) != null
                || resetByPeer(chain);
        if (!timer.isConnected()
                && (find(chain, ConnectException.class) != null || find(chain, NoRouteToHostException.class) != null)) {
            return error(request, Kind.CONNECTION_REFUSED, firstHop,
                    "connection refused by " + hopName(request, firstHop), chain, null);
        }
        if (outbound.proxied() && !timer.isProxyHandshakeDone()) {
            return closed
                    ? error(request, Kind.CONNECTION_RESET, Hop.PROXY, "proxy " + hopName(request, Hop.PROXY)
                            + " closed the connection during the handshake", chain, null)
                    : error(request, Kind.PROTOCOL_ERROR, Hop.PROXY, "proxy " + hopName(request, Hop.PROXY)
                            + " sent an invalid " + handshakeName(outbound) + " reply", chain, null);
        }
        if (find(chain, SSLException.class) != null) {
            return error(request, Kind.TLS_HANDSHAKE_FAILURE, Hop.TARGET,
                    "TLS handshake with " + hopName(request, Hop.TARGET) + " failed", chain, null);
        }
        if (closed) {
            String when = timer.hasResponseHeaders() ? "during the response body" : "before the response";
            return error(request, Kind.CONNECTION_RESET, Hop.TARGET,
                    "connection closed " + when + " from " + hopName(request, Hop.TARGET), chain, null);
        }
        if (find(chain, DecoderException.class) != null || find(chain, IllegalArgumentException.class) != null) {
            return error(request, Kind.PROTOCOL_ERROR, Hop.TARGET,
                    "invalid HTTP response from " + hopName(request, Hop.TARGET), chain, null);
        }
        return error(request, Kind.OTHER, Hop.TARGET, "probe failed", chain, null);
    }

    private static ProbeError proxyFailure(ProbeRequest request, ProxyConnectException e, List<Throwable> chain) {
        String message = String.valueOf(e.getMessage());
        if (e instanceof HttpProxyConnectException || message.startsWith("http,")) {
            Matcher status = HTTP_STATUS.matcher(message);
            if (status.find()) {
                int code = Integer.parseInt(status.group(1));
                if (code == UNDECODABLE_CONNECT_STATUS) {
                    return error(request, Kind.PROTOCOL_ERROR, Hop.PROXY, "proxy " + hopName(request, Hop.PROXY)
                            + " sent an invalid HTTP CONNECT reply", chain, null);
                }
                if (code == 407 || code == 401) {
                    return error(request, Kind.PROXY_AUTH_REJECTED, Hop.PROXY,
                            "proxy " + hopName(request, Hop.PROXY) + " rejected the credentials (CONNECT status "
                                    + code + ")", chain, code);
                }
                return error(request, Kind.PROXY_REFUSED_TARGET, Hop.TARGET,
                        "proxy " + hopName(request, Hop.PROXY) + " did not connect to "
                                + hopName(request, Hop.TARGET) + " (CONNECT status " + code + ")", chain, code);
            }
        }
        Matcher status = SOCKS_STATUS.matcher(message);
        if (status.find()) {
            int code = Integer.parseInt(status.group(3));
            if (status.group(1) != null) {
                return error(request, Kind.PROXY_AUTH_REJECTED, Hop.PROXY,
                        "proxy " + hopName(request, Hop.PROXY) + " rejected the credentials (RFC 1929 status "
                                + code + ")", chain, code);
            }
            return error(request, Kind.PROXY_REFUSED_TARGET, Hop.TARGET,
                    "proxy " + hopName(request, Hop.PROXY) + " did not connect to " + hopName(request, Hop.TARGET)
                            + " (SOCKS5 reply " + code + " " + status.group(2) + ")", chain, code);
        }
        Matcher method = SOCKS_AUTH_METHOD.matcher(message);
        if (method.find()) {
            String offered = request.outbound().authenticated() ? "username/password" : "no authentication";
            return error(request, Kind.PROXY_AUTH_REJECTED, Hop.PROXY,
                    "proxy " + hopName(request, Hop.PROXY) + " did not accept " + offered + " (SOCKS5 method "
                            + method.group(1) + ")", chain, null);
        }
        if (message.contains("timeout")) {
            return error(request, Kind.CONNECT_TIMEOUT, Hop.PROXY,
                    "proxy " + hopName(request, Hop.PROXY) + " did not complete the handshake in time", chain, null);
        }
        if (message.contains("disconnected")) {
            return error(request, Kind.CONNECTION_RESET, Hop.PROXY,
                    "proxy " + hopName(request, Hop.PROXY) + " closed the connection during the handshake",
                    chain, null);
        }
        return error(request, Kind.PROTOCOL_ERROR, Hop.PROXY,
                "proxy " + hopName(request, Hop.PROXY) + " handshake failed", chain, null);
    }

    private static ProbeError deadline(ProbeRequest request, PhaseTimer timer) {
        List<Throwable> chain = List.of();
        String after = " within " + GoDuration.format(request.timeout());
        Outbound outbound = request.outbound();
        if (!timer.isConnected()) {
            Hop hop = outbound.proxied() ? Hop.PROXY : Hop.TARGET;
            return error(request, Kind.CONNECT_TIMEOUT, hop,
                    "no connection to " + hopName(request, hop) + after, chain, null);
        }
        if (outbound.proxied() && !timer.isProxyHandshakeDone()) {
            return error(request, Kind.CONNECT_TIMEOUT, Hop.PROXY,
                    "proxy " + hopName(request, Hop.PROXY) + " did not finish the handshake to "
                            + hopName(request, Hop.TARGET) + after, chain, null);
        }
        if (request.secure() && !timer.isTlsHandshakeDone()) {
            return error(request, Kind.TLS_HANDSHAKE_FAILURE, Hop.TARGET,
                    "TLS handshake with " + hopName(request, Hop.TARGET) + " did not finish" + after, chain, null);
        }
        String what = timer.hasResponseHeaders()
                ? "response body from " + hopName(request, Hop.TARGET) + " not complete"
                : "no response headers from " + hopName(request, Hop.TARGET);
        return error(request, Kind.RESPONSE_TIMEOUT, Hop.TARGET, what + after, chain, null);
    }

    private static ProbeError error(
            ProbeRequest request, Kind kind, Hop hop, String summary, List<Throwable> chain, Integer code) {
        Outbound outbound = request.outbound();
        String reason = "outbound " + outbound.tag() + " (" + outbound.describe() + "): " + summary
                + (chain.isEmpty() ? "" : "; caused by: " + describe(chain));
        return new ProbeError(kind, hop, reason, code);
    }

    private static String hopName(ProbeRequest request, Hop hop) {
        if (hop == Hop.PROXY && request.outbound().proxied()) {
            return request.outbound().address() + ":" + request.outbound().port();
        }
        URI url = request.url();
        int port = url.getPort() != -1 ? url.getPort() : (request.secure() ? 443 : 80);
        return url.getHost() + ":" + port;
    }

    private static String handshakeName(Outbound outbound) {
        return outbound.protocol() == Protocol.SOCKS ? "SOCKS5" : "HTTP CONNECT";
    }

    private static String describe(List<Throwable> chain) {
        List<String> parts = new ArrayList<>();
        String previous = null;
        for (Throwable t : chain) {
            String message = t.getMessage();
            String part = t.getClass().getSimpleName() + (message == null ? "" : ": " + message.strip());
            if (previous == null || message == null || !previous.contains(message.strip())) {
                parts.add(part.replace('\n', ' '));
            }
            previous = message;
            if (parts.size() == MAX_CAUSES) {
                break;
            }
        }
        return String.join(" <- ", parts);
    }

    private static boolean resetByPeer(List<Throwable> chain) {
        for (Throwable t : chain) {
            if (t instanceof IOException && t.getMessage() != null
                    && (t.getMessage().contains("reset") || t.getMessage().contains("Broken pipe"))) {
                return true;
            }
        }
        return false;
    }

    private static <T extends Throwable> T find(List<Throwable> chain, Class<T> type) {
        for (Throwable t : chain) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static List<Throwable> causeChain(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
