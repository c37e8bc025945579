package io.observatory.pick;

/**
 * The outbound a pick chose.
 *
 * @param tag the chosen outbound tag
 * @param fallback {@code true} when the strategy chose none of the candidates and the balancer's fallback tag was used
 */
public record PickResult(String tag, boolean fallback) {}
