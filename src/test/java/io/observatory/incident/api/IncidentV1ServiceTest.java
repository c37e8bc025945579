package io.observatory.incident.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import io.observatory.api.v1.IncidentState;
import io.observatory.api.v1.ListIncidentsRequest;
import io.observatory.incident.store.IncidentQuery;
import org.junit.jupiter.api.Test;

/** What a ListIncidents request becomes, and the one line a bad one gets (INVALID_ARGUMENT's description). */
class IncidentV1ServiceTest {

    @Test
    void queryWhenDefaultsThenAHundredOfAnyStateFromTheNewest() {
        IncidentQuery query = IncidentV1Service.query(ListIncidentsRequest.getDefaultInstance());

        assertThat(query.limit()).isEqualTo(100);
        assertThat(query.state()).isEqualTo(IncidentQuery.State.ANY);
        assertThat(query.after()).isNull();
    }

    @Test
    void queryWhenATimeIsBeyondWhatATimestampHoldsThenRefusedNamingTheField() {
        ListIncidentsRequest request = ListIncidentsRequest.newBuilder()
                .setStartTime(Timestamp.newBuilder().setSeconds(10_000_000_000_000_000L))
                .build();

        assertThatThrownBy(() -> IncidentV1Service.query(request))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("start_time: 10000000000000000 s 0 ns (expected: a time from 0001-01-01");
    }

    @Test
    void queryWhenTheRangeIsEmptyOrThePageTokenForgedThenRefusedNamingTheField() {
        assertThatThrownBy(() -> IncidentV1Service.query(ListIncidentsRequest.newBuilder()
                        .setStartTime(Timestamp.newBuilder().setSeconds(2000))
                        .setEndTime(Timestamp.newBuilder().setSeconds(1000))
                        .build()))
                .hasMessageStartingWith("end_time:");
        assertThatThrownBy(() -> IncidentV1Service.query(ListIncidentsRequest.newBuilder()
                        .setPageToken("not a token")
                        .build()))
                .hasMessageStartingWith("page_token: \"not a token\" (expected: the next_page_token");
        assertThatThrownBy(() -> IncidentV1Service.query(
                        ListIncidentsRequest.newBuilder().setPageSize(5000).build()))
                .hasMessage("page_size: 5000 (expected: 1-999, or 0 for 100)");
        assertThatThrownBy(() -> IncidentV1Service.query(
                        ListIncidentsRequest.newBuilder().setStateValue(7).build()))
                .hasMessage("state: 7 (expected: 0 any, 1 open, 2 resolved)");
        assertThat(IncidentV1Service.query(ListIncidentsRequest.newBuilder()
                                .setState(IncidentState.INCIDENT_STATE_OPEN)
                                .build())
                        .state())
                .isEqualTo(IncidentQuery.State.OPEN);
    }
}
