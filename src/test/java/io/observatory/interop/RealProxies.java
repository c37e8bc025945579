package io.observatory.interop;

/**
 * The real Debian proxies that {@code .ci/run} starts on loopback for the interop tests (microsocks for SOCKS5,
 * tinyproxy for HTTP CONNECT), as it passes them through Maven's {@code interop} profile: the system properties
 * {@code interop.socks.port}, {@code interop.socks.username}, {@code interop.socks.password} and the same three for
 * {@code interop.http}.
 *
 * @param socks microsocks on {@code 127.0.0.1}, requiring RFC 1929 username/password
 * @param http tinyproxy on {@code 127.0.0.1}, requiring HTTP Basic proxy authentication
 */
record RealProxies(Endpoint socks, Endpoint http) {

    /**
     * One running proxy and the one credential pair it accepts.
     *
     * @param port TCP port on {@code 127.0.0.1}
     * @param username the accepted user
     * @param password that user's password
     */
    record Endpoint(int port, String username, String password) {}

    /**
     * Reads both proxies from the system properties.
     *
     * @throws IllegalStateException naming the first missing property and how to run the tests (through
     *     {@code .ci/run}) when one is absent or blank
     */
    static RealProxies fromSystemProperties() {
        return new RealProxies(endpoint("socks"), endpoint("http"));
    }

    private static Endpoint endpoint(String kind) {
        String prefix = "interop." + kind + ".";
        return new Endpoint(
                Integer.parseInt(required(prefix + "port")),
                required(prefix + "username"),
                required(prefix + "password"));
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set: the interop tests probe "
                    + "through the real microsocks and tinyproxy that .ci/run starts; run them with `bash .ci/run` "
                    + "(or start both proxies on 127.0.0.1 yourself and pass every interop.socks.* and "
                    + "interop.http.* property to ./mvnw verify -Pinterop, or -Pbench)");
        }
        return value;
    }
}
