package io.observatory.testing;

import io.netty.channel.socket.SocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/** A lab proxy: a {@link LoopbackFixture} that records the destination of every request its clients make. */
public abstract class LabProxy extends LoopbackFixture {

    private final List<RequestedDestination> requestedDestinations;

    /**
     * @param name names the event loop thread
     * @param pipeline given the recorder of requested destinations, sets up each accepted connection's pipeline
     */
    LabProxy(String name, Function<Consumer<RequestedDestination>, Consumer<SocketChannel>> pipeline) {
        this(name, pipeline, new CopyOnWriteArrayList<>());
    }

    private LabProxy(
            String name,
            Function<Consumer<RequestedDestination>, Consumer<SocketChannel>> pipeline,
            List<RequestedDestination> requested) {
        super(name, pipeline.apply(requested::add));
        this.requestedDestinations = requested;
    }

    /**
     * Returns a snapshot of the requested destinations, in arrival order and exactly as the client encoded them (a
     * request for {@code localhost} stays the name {@code localhost}), whether or not the proxy could serve them.
     */
    public List<RequestedDestination> requestedDestinations() {
        return List.copyOf(requestedDestinations);
    }
}
