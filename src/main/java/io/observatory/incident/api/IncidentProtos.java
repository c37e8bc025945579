package io.observatory.incident.api;

import com.google.protobuf.Timestamp;
import io.observatory.api.ObservationProtos;
import io.observatory.api.v1.Vantage;
import io.observatory.incident.Incident;
import java.time.Instant;

/** Incidents as {@code observatory.v1} messages. */
final class IncidentProtos {

    private IncidentProtos() {}

    static io.observatory.api.v1.Incident incident(Incident incident) {
        io.observatory.api.v1.Incident.Builder message = io.observatory.api.v1.Incident.newBuilder()
                .setId(incident.id())
                .setSubject(incident.subject())
                .setSource(incident.source())
                .setKind(incident.kind())
                .setSeverity(incident.severity().label())
                .setReason(incident.reason())
                .putAllLabels(incident.labels())
                .setOpenedTime(ObservationProtos.timestamp(incident.openedAt()))
                .setResolution(incident.resolution());
        incident.evidence()
                .forEach(vantage -> message.addEvidence(Vantage.newBuilder()
                        .setName(vantage.name())
                        .setSite(vantage.site())
                        .setChecker(vantage.checker())
                        .setDetail(vantage.detail())));
        Instant resolvedAt = incident.resolvedAt();
        if (resolvedAt != null) {
            message.setResolvedTime(ObservationProtos.timestamp(resolvedAt));
        }
        return message.build();
    }

    static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }
}
