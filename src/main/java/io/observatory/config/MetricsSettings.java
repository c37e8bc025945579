package io.observatory.config;

import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.metrics}: what the Prometheus endpoint shows beyond the fixed per-outbound series.
 *
 * @param outboundHistograms tag prefixes of the outbounds that also get their own RTT histogram,
 *                           {@code observatory_probe_outbound_rtt_seconds{outbound}} (16 series each: 12 buckets,
 *                           {@code +Inf}, count, sum and max), as the subject selector matches tags; an empty prefix
 *                           selects every outbound, which at 10,000 outbounds is 160,000 series. Follows live
 *                           reloads.
 *                           Default: none
 */
public record MetricsSettings(@DefaultValue List<String> outboundHistograms) {

    public MetricsSettings {
        outboundHistograms = List.copyOf(outboundHistograms);
    }
}
