package io.observatory.api;

import com.google.protobuf.MessageLite;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A response serialized once and written as is to every call that answers with it: the wire bytes of one protobuf
 * message of the method's response type, immutable. A method answers with these through {@link #MARSHALLER}
 * ({@link SerializedMethods}), so an answer that changes only when the snapshot does costs one serialization per
 * snapshot instead of one per call. Costs the message's serialized size.
 */
final class SerializedMessage {

    /**
     * Writes the bytes without copying them first (a {@link KnownLength}, {@link Drainable} stream, as grpc-java's
     * protobuf marshaller gives); parses any stream into its bytes.
     */
    static final MethodDescriptor.Marshaller<SerializedMessage> MARSHALLER = new Marshaller();

    private final byte[] bytes;

    private SerializedMessage(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The wire bytes of {@code message}. */
    static SerializedMessage of(MessageLite message) {
        return new SerializedMessage(message.toByteArray());
    }

    /** The serialized size, in bytes. */
    int size() {
        return bytes.length;
    }

    private static final class Marshaller implements MethodDescriptor.Marshaller<SerializedMessage> {

        @Override
        public InputStream stream(SerializedMessage value) {
            return new Stream(value.bytes);
        }

        @Override
        public SerializedMessage parse(InputStream stream) {
            try (stream) {
                return new SerializedMessage(stream.readAllBytes());
            } catch (IOException e) {
                throw Status.INTERNAL.withDescription("reading a message: " + e.getMessage()).withCause(e)
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
