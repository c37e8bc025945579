package io.observatory.incident.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.IncidentServiceGrpc;
import io.observatory.api.v1.ListIncidentsRequest;
import io.observatory.api.v1.ListIncidentsResponse;
import io.observatory.api.v1.WatchIncidentsRequest;
import io.observatory.api.v1.WatchIncidentsResponse;
import io.observatory.incident.Incident;
import io.observatory.incident.store.IncidentQuery;
import io.observatory.incident.store.IncidentRepository;
import io.observatory.text.QuotedText;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * {@code observatory.v1.IncidentService}. {@code ListIncidents} reads the database on the {@code incident-read}
 * executor (a database call never runs on gRPC's threads), {@code WatchIncidents} follows the store
 * ({@link IncidentWatchers}).
 */
final class IncidentV1Service extends IncidentServiceGrpc.IncidentServiceImplBase {

    /** The longest subject prefix a request may carry, in UTF-8 bytes. */
    static final int MAX_PREFIX_BYTES = 256;

    private static final int DEFAULT_PAGE_SIZE = 100;

    /** A Timestamp's range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
    private static final long MIN_SECONDS = -62_135_596_800L;

    private static final long MAX_SECONDS = 253_402_300_799L;
    private static final Logger log = LoggerFactory.getLogger(IncidentV1Service.class);

    private final IncidentRepository repository;
    private final Executor reads;
    private final IncidentWatchers watchers;

    /**
     * @param reads    where database reads run: bounded, refusing when full
     * @param watchers the open {@code WatchIncidents} streams
     */
    IncidentV1Service(IncidentRepository repository, Executor reads, IncidentWatchers watchers) {
        this.repository = repository;
        this.reads = reads;
        this.watchers = watchers;
    }

    /**
     * {@code INVALID_ARGUMENT} naming the field for a bad page size, prefix, range or token; {@code UNAVAILABLE}
     * while the database cannot be reached; {@code RESOURCE_EXHAUSTED} when too many lists wait for the database.
     */
    @Override
    public void listIncidents(ListIncidentsRequest request, StreamObserver<ListIncidentsResponse> responses) {
        IncidentQuery query;
        try {
            query = query(request);
        } catch (IllegalArgumentException e) {
            responses.onError(
                    Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        try {
            reads.execute(() -> list(query, responses));
        } catch (RejectedExecutionException e) {
            responses.onError(Status.RESOURCE_EXHAUSTED
                    .withDescription("too many incident lists wait for the database; retry in a moment")
                    .asRuntimeException());
        }
    }

    /** {@code INVALID_ARGUMENT} for a prefix longer than {@value #MAX_PREFIX_BYTES} bytes. */
    @Override
    public void watchIncidents(WatchIncidentsRequest request, StreamObserver<WatchIncidentsResponse> responses) {
        String prefix = request.getSubjectPrefix();
        if (prefix.getBytes(StandardCharsets.UTF_8).length > MAX_PREFIX_BYTES) {
            responses.onError(Status.INVALID_ARGUMENT
                    .withDescription(prefixTooLong(prefix))
                    .asRuntimeException());
            return;
        }
        watchers.watch((ServerCallStreamObserver<WatchIncidentsResponse>) responses, prefix);
    }

    private void list(IncidentQuery query, StreamObserver<ListIncidentsResponse> responses) {
        List<Incident> page;
        try {
            page = repository.list(new IncidentQuery(
                    query.subjectPrefix(), query.state(), query.from(), query.to(), query.after(), query.limit() + 1));
        } catch (DataAccessException | TransactionException e) {
            // The driver's words (hosts, users) are for the log, not for a reader who may be anyone.
            log.warn(
                    "ListIncidents: incident database unavailable: {}",
                    e.getMostSpecificCause().getMessage());
            responses.onError(Status.UNAVAILABLE
                    .withDescription("incident database unavailable; retry later")
                    .asRuntimeException());
            return;
        } catch (RuntimeException e) {
            log.error("ListIncidents failed", e);
            responses.onError(
                    Status.INTERNAL.withDescription("listing incidents failed").asRuntimeException());
            return;
        }
        ListIncidentsResponse.Builder response = ListIncidentsResponse.newBuilder();
        List<Incident> shown = page.size() > query.limit() ? page.subList(0, query.limit()) : page;
        shown.forEach(incident -> response.addIncidents(IncidentProtos.incident(incident)));
        if (page.size() > query.limit()) {
            Incident last = shown.get(shown.size() - 1);
            response.setNextPageToken(token(new IncidentQuery.Position(last.openedAt(), last.id())));
        }
        responses.onNext(response.build());
        responses.onCompleted();
    }

    /**
     * The request as a query; the page size one more than asked is added by the caller.
     *
     * @throws IllegalArgumentException naming the field and what is expected
     */
    static IncidentQuery query(ListIncidentsRequest request) {
        int size = request.getPageSize() == 0 ? DEFAULT_PAGE_SIZE : request.getPageSize();
        if (size < 1 || size > IncidentQuery.MAX_LIMIT - 1) {
            throw new IllegalArgumentException("page_size: " + request.getPageSize() + " (expected: 1-"
                    + (IncidentQuery.MAX_LIMIT - 1) + ", or 0 for " + DEFAULT_PAGE_SIZE + ")");
        }
        String prefix = request.getSubjectPrefix();
        if (prefix.getBytes(StandardCharsets.UTF_8).length > MAX_PREFIX_BYTES) {
            throw new IllegalArgumentException(prefixTooLong(prefix));
        }
        Instant from = request.hasStartTime() ? time("start_time", request.getStartTime()) : null;
        Instant to = request.hasEndTime() ? time("end_time", request.getEndTime()) : null;
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("end_time: " + to + " (expected: after start_time " + from + ")");
        }
        IncidentQuery.State state = switch (request.getState()) {
            case INCIDENT_STATE_OPEN -> IncidentQuery.State.OPEN;
            case INCIDENT_STATE_RESOLVED -> IncidentQuery.State.RESOLVED;
            case INCIDENT_STATE_UNSPECIFIED -> IncidentQuery.State.ANY;
            case UNRECOGNIZED ->
                throw new IllegalArgumentException(
                        "state: " + request.getStateValue() + " (expected: 0 any, 1 open, 2 resolved)");
        };
        return new IncidentQuery(prefix, state, from, to, position(request.getPageToken()), size);
    }

    /**
     * A request's time, within what a Timestamp may hold (years 1-9999, as protobuf's {@code Timestamps.isValid} says)
     * and so within the database's milliseconds.
     */
    private static Instant time(String field, Timestamp timestamp) {
        if (timestamp.getSeconds() < MIN_SECONDS
                || timestamp.getSeconds() > MAX_SECONDS
                || timestamp.getNanos() < 0
                || timestamp.getNanos() > 999_999_999) {
            throw new IllegalArgumentException(field + ": " + timestamp.getSeconds() + " s " + timestamp.getNanos()
                    + " ns (expected: a time from 0001-01-01 to 9999-12-31, nanos 0-999999999)");
        }
        return IncidentProtos.instant(timestamp);
    }

    private static String prefixTooLong(String prefix) {
        return "subject_prefix: " + prefix.getBytes(StandardCharsets.UTF_8).length + " bytes (expected: at most "
                + MAX_PREFIX_BYTES + ")";
    }

    /** A page token: {@code <opened epoch millis>:<id>}, base64url. */
    private static String token(IncidentQuery.Position position) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                        (position.openedAt().toEpochMilli() + ":" + position.id()).getBytes(StandardCharsets.UTF_8));
    }

    private static IncidentQuery.@Nullable Position position(String token) {
        if (token.isEmpty()) {
            return null;
        }
        String expected = "page_token: " + QuotedText.quote(token, 64)
                + " (expected: the next_page_token of an earlier response)";
        String decoded;
        try {
            decoded = ByteString.copyFrom(Base64.getUrlDecoder().decode(token)).toStringUtf8();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(expected, e);
        }
        int colon = decoded.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException(expected);
        }
        try {
            return new IncidentQuery.Position(
                    Instant.ofEpochMilli(Long.parseLong(decoded.substring(0, colon))), decoded.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(expected, e);
        }
    }
}
