package io.observatory.state;

import com.google.protobuf.ByteString;
import io.observatory.state.v1.SavedRing;
import io.observatory.state.v1.SavedSample;
import io.observatory.stats.RttRing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The burst observer's sample ring of one outbound to and from the state file's {@code SavedRing}. A sample's time is
 * a ticker reading, which means nothing to another process: it is saved as the wall time it corresponds to, and
 * restored as the reading of the new process's ticker at that wall time, so it expires as it would have. About 20
 * bytes per sample: 2 MB for 10,000 outbounds at sampling 10.
 */
final class SavedRings {

    private SavedRings() {}

    /**
     * @param taken      the snapshot's wall time
     * @param takenNanos the same moment on the ticker the samples' times were read from
     */
    static SavedRing save(String tag, byte[] measures, List<RttRing.Sample> samples, Instant taken, long takenNanos) {
        SavedRing.Builder ring = SavedRing.newBuilder().setTag(tag).setMeasures(ByteString.copyFrom(measures));
        for (RttRing.Sample sample : samples) {
            ring.addSamples(SavedSample.newBuilder()
                    .setRecordedTime(Timestamps.wall(sample.recordedAtNanos(), taken, takenNanos))
                    .setSuccess(sample.success())
                    .setRttNanos(sample.rttNanos()));
        }
        return ring.build();
    }

    /**
     * The ring's samples, oldest first, with times on this process's ticker; a sample recorded after {@code now} (by
     * a clock ahead of this one) counts as recorded now, so it never outlives its validity.
     *
     * @param now      this process's wall clock
     * @param nowNanos the same moment on its ticker
     */
    static List<RttRing.Sample> restore(SavedRing ring, Instant now, long nowNanos) {
        List<RttRing.Sample> samples = new ArrayList<>(ring.getSamplesCount());
        for (SavedSample sample : ring.getSamplesList()) {
            samples.add(new RttRing.Sample(
                    nowNanos - Timestamps.ageNanos(sample.getRecordedTime(), now),
                    sample.getSuccess(),
                    sample.getRttNanos()));
        }
        return samples;
    }
}
