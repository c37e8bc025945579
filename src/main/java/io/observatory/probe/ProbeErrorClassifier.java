package io.observatory.probe;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.proxy.HttpProxyHandler.HttpProxyConnectException;
import io.netty.handler.proxy.ProxyConnectException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.probe.PhaseTimer.Mark;
import io.observatory.probe.ProbeError.Hop;
import io.observatory.probe.ProbeError.Kind;
import io.observatory.text.GoDuration;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;
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
    /** The JDK's message for a fatal alert the peer sent: {@code Received fatal alert: unrecognized_name}. */
    private static final Pattern TLS_ALERT = Pattern.compile("Received fatal alert: ([a-z_]+)");
    /** The status Netty's HTTP proxy handler reports when the proxy's reply could not be decoded as HTTP. */
    private static final int UNDECODABLE_CONNECT_STATUS = 999;

    private final ProbeRequest request;
    /** The probes' source address ({@code observatory.probe.source-address}); {@code null} for the system's choice. */
    private final @Nullable InetAddress source;
    /** The URL of the request that failed: the probe URL, or where a followed redirect led. */
    private final URI url;
    /** The causes the reason lists; empty for a deadline. */
    private final List<Throwable> chain;

    private final Hop firstHop;
    /** {@code proxy host:port}, as reasons name the proxy. */
    private final String proxy;
    /** {@code host:port} of {@link #url}. */
    private final String target;

    private ProbeErrorClassifier(ProbeRequest request, @Nullable InetAddress source, URI url, List<Throwable> chain) {
        this.request = request;
        this.source = source;
        this.url = url;
        this.chain = chain;
        this.firstHop = request.outbound().proxied() ? Hop.PROXY : Hop.TARGET;
        this.proxy = "proxy " + hopName(Hop.PROXY);
        this.target = hopName(Hop.TARGET);
    }

    /**
     * Classifies {@code error}.
     *
     * @param request the probe that failed
     * @param timer the failed request's URL and phase boundaries, which tell where a deadline struck
     * @param error what ended the probe (a {@link TimeoutException} when the probe's own deadline fired)
     * @param source the probes' source address, {@code null} when the system chooses it
     */
    static ProbeError classify(
            ProbeRequest request, PhaseTimer.Marks timer, Throwable error, @Nullable InetAddress source) {
        List<Throwable> chain = causeChain(error);
        for (Throwable cause : chain) {
            if (cause instanceof ProxyConnectException proxyError) {
                return new ProbeErrorClassifier(request, source, timer.target(), chain).proxyFailure(proxyError);
            }
        }
        if (chain.get(0) instanceof TimeoutException) {
            return new ProbeErrorClassifier(request, source, timer.target(), List.of()).deadline(timer);
        }
        return new ProbeErrorClassifier(request, source, timer.target(), chain).failure(timer);
    }

    private ProbeError failure(PhaseTimer.Marks timer) {
        Outbound outbound = request.outbound();
        if (has(UnknownHostException.class, UnresolvedAddressException.class)) {
            return error(Kind.DNS_FAILURE, firstHop, "cannot resolve " + hopName(firstHop));
        }
        if (has(ConnectTimeoutException.class)) {
            return error(
                    Kind.CONNECT_TIMEOUT,
                    firstHop,
                    "no connection to " + hopName(firstHop) + " within " + connectDeadline());
        }
        boolean closed =
                has(PrematureCloseException.class, PrematureChannelClosureException.class, ClosedChannelException.class)
                        || resetByPeer();
        InetAddress from = source;
        if (from != null && !timer.reached(Mark.CONNECTED) && otherAddressFamily()) {
            boolean v4 = from instanceof Inet4Address;
            return error(
                    Kind.OTHER,
                    firstHop,
                    "cannot reach " + hopName(firstHop) + " from the probes' source address " + from.getHostAddress()
                            + " (observatory.probe.source-address): an " + (v4 ? "IPv6" : "IPv4") + " address from an "
                            + (v4 ? "IPv4" : "IPv6") + " one");
        }
        if (!timer.reached(Mark.CONNECTED) && has(ConnectException.class, NoRouteToHostException.class)) {
            return error(Kind.CONNECTION_REFUSED, firstHop, "connection refused by " + hopName(firstHop));
        }
        if (outbound.proxied() && !timer.reached(Mark.PROXY_HANDSHAKE_DONE)) {
            String handshake = outbound.protocol() == Protocol.SOCKS ? "SOCKS5" : "HTTP CONNECT";
            return closed
                    ? error(Kind.CONNECTION_RESET, Hop.PROXY, proxy + " closed the connection during the handshake")
                    : error(Kind.PROTOCOL_ERROR, Hop.PROXY, proxy + " sent an invalid " + handshake + " reply");
        }
        if (has(SslHandshakeTimeoutException.class)) {
            return error(
                    Kind.TLS_HANDSHAKE_FAILURE,
                    Hop.TARGET,
                    "TLS handshake with " + target + " did not finish within " + connectDeadline());
        }
        String alert = alert();
        boolean closedInHandshake = closed
                || chain.stream()
                        .anyMatch(
                                cause -> String.valueOf(cause.getMessage()).contains("closed while SSL/TLS handshake"));
        if (closedInHandshake && alert == null && timer.secure() && !timer.reached(Mark.TLS_HANDSHAKE_DONE)) {
            return error(Kind.CONNECTION_RESET, Hop.TARGET, target + " closed the connection during the TLS handshake");
        }
        if (has(SSLException.class)) {
            return error(
                    Kind.TLS_HANDSHAKE_FAILURE,
                    Hop.TARGET,
                    "TLS handshake with " + target + " failed"
                            + (alert != null ? ": it sent the alert " + alert : certificateProblem()));
        }
        if (closed) {
            String when = timer.reached(Mark.RESPONSE_HEADERS) ? "during the response body" : "before the response";
            return error(Kind.CONNECTION_RESET, Hop.TARGET, "connection closed " + when + " from " + target);
        }
        if (has(RedirectLimitException.class)) {
            return error(
                    Kind.PROTOCOL_ERROR,
                    Hop.TARGET,
                    "stopped after " + ProbeRequest.Client.MAX_REDIRECTS + " redirects from " + target);
        }
        if (has(DecoderException.class, IllegalArgumentException.class)) {
            return error(Kind.PROTOCOL_ERROR, Hop.TARGET, "invalid HTTP response from " + target);
        }
        return error(Kind.OTHER, Hop.TARGET, "probe failed");
    }

    /** The connect deadline in Go form, and the setting it comes from when it is not the whole probe's. */
    private String connectDeadline() {
        String deadline = GoDuration.format(request.connectTimeout());
        return request.connectTimeout().equals(request.timeout()) ? deadline : deadline + " (connect-timeout)";
    }

    /** The description of the fatal TLS alert the server sent (RFC 8446 6.2), e.g. {@code unrecognized_name}. */
    private @Nullable String alert() {
        for (Throwable cause : chain) {
            Matcher alert = TLS_ALERT.matcher(String.valueOf(cause.getMessage()));
            if (cause instanceof SSLException && alert.find()) {
                return alert.group(1);
            }
        }
        return null;
    }

    /** What was wrong with the server's certificate, as {@code ": ..."}; empty when the chain does not tell. */
    private String certificateProblem() {
        if (has(CertificateExpiredException.class)) {
            return ": the certificate of " + target + " has expired";
        }
        if (has(CertificateNotYetValidException.class)) {
            return ": the certificate of " + target + " is not valid yet";
        }
        String name = request.outbound().serverName();
        boolean mismatch = chain.stream()
                .map(cause -> String.valueOf(cause.getMessage()))
                .anyMatch(
                        message -> message.contains("No subject alternative") || message.contains("No name matching"));
        if (mismatch) {
            return ": the certificate of " + target + " does not match " + (name != null ? name : url.getHost());
        }
        if (has(CertPathBuilderException.class, CertPathValidatorException.class)) {
            return ": the certificate of " + target + " is not trusted";
        }
        return "";
    }

    /**
     * Whether the connection failed as one from an address of one family to one of the other does: the native
     * transport's {@code EAFNOSUPPORT} ("Address family not supported by protocol"), or the JDK's
     * {@link UnsupportedAddressTypeException}.
     */
    private boolean otherAddressFamily() {
        return has(UnsupportedAddressTypeException.class)
                || chain.stream()
                        .anyMatch(cause -> cause instanceof SocketException
                                && String.valueOf(cause.getMessage()).contains("Address family not supported"));
    }

    private ProbeError proxyFailure(ProxyConnectException e) {
        String message = String.valueOf(e.getMessage());
        Matcher http = HTTP_STATUS.matcher(message);
        if ((e instanceof HttpProxyConnectException || message.startsWith("http,")) && http.find()) {
            int code = Integer.parseInt(http.group(1));
            if (code == UNDECODABLE_CONNECT_STATUS) {
                return error(Kind.PROTOCOL_ERROR, Hop.PROXY, proxy + " sent an invalid HTTP CONNECT reply");
            }
            return code == 407 || code == 401
                    ? error(
                            Kind.PROXY_AUTH_REJECTED,
                            Hop.PROXY,
                            proxy + " rejected the credentials (CONNECT status " + code + ")",
                            code)
                    : error(
                            Kind.PROXY_REFUSED_TARGET,
                            Hop.TARGET,
                            proxy + " did not connect to " + target + " (CONNECT status " + code + ")",
                            code);
        }
        Matcher socks = SOCKS_STATUS.matcher(message);
        if (socks.find()) {
            int code = Integer.parseInt(socks.group(3));
            return socks.group(1) != null
                    ? error(
                            Kind.PROXY_AUTH_REJECTED,
                            Hop.PROXY,
                            proxy + " rejected the credentials (RFC 1929 status " + code + ")",
                            code)
                    : error(
                            Kind.PROXY_REFUSED_TARGET,
                            Hop.TARGET,
                            proxy + " did not connect to " + target + " (SOCKS5 reply " + code + " " + socks.group(2)
                                    + ")",
                            code);
        }
        Matcher method = SOCKS_AUTH_METHOD.matcher(message);
        if (method.find()) {
            String offered = request.outbound().authenticated() ? "username/password" : "no authentication";
            return error(
                    Kind.PROXY_AUTH_REJECTED,
                    Hop.PROXY,
                    proxy + " did not accept " + offered + " (SOCKS5 method " + method.group(1) + ")");
        }
        if (message.contains("timeout")) {
            return error(
                    Kind.CONNECT_TIMEOUT,
                    Hop.PROXY,
                    proxy + " did not complete the handshake within " + connectDeadline());
        }
        if (message.contains("disconnected")) {
            return error(Kind.CONNECTION_RESET, Hop.PROXY, proxy + " closed the connection during the handshake");
        }
        return error(Kind.PROTOCOL_ERROR, Hop.PROXY, proxy + " handshake failed");
    }

    private ProbeError deadline(PhaseTimer.Marks timer) {
        String after = " within " + GoDuration.format(request.timeout());
        if (timer.resolvesLocally() && timer.reached(Mark.RESOLVE_STARTED) && !timer.reached(Mark.RESOLVED)) {
            return error(Kind.DNS_FAILURE, firstHop, "no address for " + hopName(firstHop) + after);
        }
        if (!timer.reached(Mark.CONNECTED)) {
            return error(Kind.CONNECT_TIMEOUT, firstHop, "no connection to " + hopName(firstHop) + after);
        }
        if (request.outbound().proxied() && !timer.reached(Mark.PROXY_HANDSHAKE_DONE)) {
            return error(Kind.CONNECT_TIMEOUT, Hop.PROXY, proxy + " did not finish the handshake to " + target + after);
        }
        if (timer.secure() && !timer.reached(Mark.TLS_HANDSHAKE_DONE)) {
            return error(
                    Kind.TLS_HANDSHAKE_FAILURE, Hop.TARGET, "TLS handshake with " + target + " did not finish" + after);
        }
        String what = timer.reached(Mark.RESPONSE_HEADERS)
                ? "response body from " + target + " not complete"
                : "no response headers from " + target;
        return error(Kind.RESPONSE_TIMEOUT, Hop.TARGET, what + after);
    }

    private ProbeError error(Kind kind, Hop hop, String summary) {
        return error(kind, hop, summary, null);
    }

    private ProbeError error(Kind kind, Hop hop, String summary, @Nullable Integer proxyReplyCode) {
        Outbound outbound = request.outbound();
        String reason = "outbound " + outbound.tag() + " (" + outbound.describe() + "): " + summary
                + (chain.isEmpty() ? "" : "; caused by: " + describe(chain));
        return new ProbeError(kind, hop, reason, proxyReplyCode);
    }

    private String hopName(Hop hop) {
        if (hop == Hop.PROXY && request.outbound().proxied()) {
            return request.outbound().address() + ":" + request.outbound().port();
        }
        int port = url.getPort() != -1 ? url.getPort() : ("https".equalsIgnoreCase(url.getScheme()) ? 443 : 80);
        return url.getHost() + ":" + port;
    }

    private boolean has(Class<?>... types) {
        return chain.stream().anyMatch(cause -> Arrays.stream(types).anyMatch(type -> type.isInstance(cause)));
    }

    private boolean resetByPeer() {
        return chain.stream()
                .anyMatch(cause -> cause instanceof IOException
                        && cause.getMessage() != null
                        && (cause.getMessage().contains("reset")
                                || cause.getMessage().contains("Broken pipe")));
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

    private static List<Throwable> causeChain(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
