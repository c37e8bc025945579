package io.observatory.api;

import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A response of a method whose answers are served as bytes: either serialized once and written as is to every call
 * that answers with it ({@link #of}), or one call's message written as grpc-java writes any message
 * ({@link #streamed}); of the method's response type, immutable. A method answers with these through
 * {@link #MARSHALLER} ({@link SerializedMethods}), so an answer that changes only when the snapshot does costs one
 * serialization per snapshot instead of one per call. Costs the message's serialized size.
 */
final class SerializedMessage {

    /**
     * Writes the bytes without copying them first (a {@link KnownLength}, {@link Drainable} stream, as grpc-java's
     * protobuf marshaller gives); parses any stream into its bytes.
     */
    static final MethodDescriptor.Marshaller<SerializedMessage> MARSHALLER = new Marshaller();

    private final byte @Nullable [] bytes;
    private final @Nullable Message message;

    private SerializedMessage(byte @Nullable [] bytes, @Nullable Message message) {
        this.bytes = bytes;
        this.message = message;
    }

    /** The wire bytes of {@code message}, serialized now: an answer shared by many calls. */
    static SerializedMessage of(MessageLite message) {
        return new SerializedMessage(message.toByteArray(), null);
    }

    /**
     * {@code message}, serialized while it is written, straight into the transport's buffer as grpc-java's protobuf
     * marshaller does: the answer of one call, never copied into an array first.
     */
    static SerializedMessage streamed(Message message) {
        return new SerializedMessage(null, message);
    }

    /** The message's size on the wire, in bytes. */
    long size() {
        return bytes != null ? bytes.length : Objects.requireNonNull(message).getSerializedSize();
    }

    private InputStream stream() {
        if (bytes != null) {
            return new Stream(bytes);
        }
        Message streamed = Objects.requireNonNull(message);
        return ProtoUtils.marshaller(streamed.getDefaultInstanceForType()).stream(streamed);
    }

    private static final class Marshaller implements MethodDescriptor.Marshaller<SerializedMessage> {

        @Override
        public InputStream stream(SerializedMessage value) {
            return value.stream();
        }

        @Override
        public SerializedMessage parse(InputStream stream) {
            try (stream) {
                return new SerializedMessage(stream.readAllBytes(), null);
            } catch (IOException e) {
                throw Status.INTERNAL
                        .withDescription("reading a message: " + e.getMessage())
                        .withCause(e)
                        .asRuntimeException();
            }
        }
    }

    /** The bytes as a stream that knows its length and drains into the transport's buffer in one write. */
    private static final class Stream extends ByteArrayInputStream implements KnownLength, Drainable {

        Stream(byte[] bytes) {
            super(bytes);
        }

        @Override
        public synchronized int drainTo(OutputStream target) throws IOException {
            int drained = count - pos;
            target.write(buf, pos, drained);
            pos = count;
            return drained;
        }
    }
}
