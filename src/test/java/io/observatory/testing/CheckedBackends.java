package io.observatory.testing;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real gRPC backends {@code b1}, {@code b2}, … ({@link NamedBackend}), each with an HTTP health endpoint of its own
 * ({@link RecordingHttpServer}, answering 200 until told otherwise), as the outbounds that probe the endpoints and send
 * balancers to the backends; and the xDS channel a proxyless gRPC client dials with the docs' bootstrap file.
 */
public final class CheckedBackends implements AutoCloseable {

    private final List<Server> backends = new ArrayList<>();
    private final List<RecordingHttpServer> health = new ArrayList<>();

    private CheckedBackends() {}

    /** Starts {@code count} backends and their health endpoints. */
    public static CheckedBackends start(int count) throws IOException {
        CheckedBackends started = new CheckedBackends();
        for (int i = 0; i < count; i++) {
            started.backends.add(NamedBackend.start("b" + (i + 1)));
            started.health.add(RecordingHttpServer.start());
        }
        return started;
    }

    /**
     * The command-line arguments that configure each backend as the direct outbound {@code b<n>}: probed at its health
     * endpoint's {@code /healthz}, its endpoint the backend.
     */
    public List<String> outboundArgs() {
        List<String> args = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            String outbound = "--observatory.outbounds[" + i + "].";
            args.add(outbound + "tag=b" + (i + 1));
            args.add(outbound + "protocol=direct");
            args.add(outbound + "probe-url=" + health.get(i).url() + "/healthz");
            args.add(outbound + "endpoint=127.0.0.1:" + backends.get(i).getPort());
        }
        return args;
    }

    /** Backend {@code index} (0 for {@code b1}). */
    public Server backend(int index) {
        return backends.get(index);
    }

    public List<Server> backends() {
        return List.copyOf(backends);
    }

    /** The health endpoint of backend {@code index}. */
    public RecordingHttpServer health(int index) {
        return health.get(index);
    }

    /** Each outbound's tag to its health endpoint's {@code address:port}, e.g. for HAProxy's server lines. */
    public Map<String, String> healthAddresses() {
        Map<String, String> addresses = new LinkedHashMap<>();
        for (int i = 0; i < health.size(); i++) {
            addresses.put("b" + (i + 1), health.get(i).url().substring("http://".length()));
        }
        return addresses;
    }

    /**
     * A channel to {@code xds:///<cluster>} through grpc-java's xDS client, bootstrapped with
     * {@code docs/examples/grpc-xds-bootstrap.json} pointed at {@code 127.0.0.1:grpcPort} (written to {@code dir}).
     * grpc-java reads the bootstrap once per JVM: call it with one service per test JVM.
     */
    public static ManagedChannel xdsChannel(Path dir, int grpcPort, String cluster) throws IOException {
        Path bootstrap = Files.writeString(
                dir.resolve("bootstrap.json"),
                Files.readString(Path.of("docs/examples/grpc-xds-bootstrap.json"))
                        .replace("observatory.example:9090", "127.0.0.1:" + grpcPort));
        System.setProperty("io.grpc.xds.bootstrap", bootstrap.toString());
        return Grpc.newChannelBuilder("xds:///" + cluster, InsecureChannelCredentials.create())
                .build();
    }

    @Override
    public void close() {
        backends.forEach(Server::shutdownNow);
        health.forEach(RecordingHttpServer::close);
    }
}
