package io.observatory.detectionlab;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Free TCP ports on 127.0.0.1 for the processes this lab starts, which cannot report a port 0 they were given. */
final class LoopbackPorts {

    private LoopbackPorts() {}

    /** A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice for port 0). */
    static int free() throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return probe.getLocalPort();
        }
    }
}
