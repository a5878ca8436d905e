package io.flashsale.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One read of the service's Prometheus scrape, as series (name with labels) to value, so the harness reports what
 * the service itself counted (batch sizes, relayed entries, consumer lag) next to what it measured from outside.
 */
record ServiceScrape(Map<String, Double> series) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** From the actuator's own port, with the admin token. */
    static ServiceScrape read(int managementPort, String adminToken) {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                .header("Authorization", "Bearer " + adminToken)
                .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return new ServiceScrape(Map.of());
            }
            return parse(response.body());
        } catch (IOException unreachable) {
            return new ServiceScrape(Map.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ServiceScrape(Map.of());
        }
    }

    static ServiceScrape parse(String text) {
        Map<String, Double> series = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            try {
                series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            } catch (RuntimeException unparsable) {
                // Not a sample line: skipped.
            }
        }
        return new ServiceScrape(series);
    }

    /** The sum of every series of {@code name} (whatever its labels). */
    double sum(String name) {
        return series.entrySet().stream()
                .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** The largest value among the series of {@code name}, 0 when there is none. */
    double max(String name) {
        return series.entrySet().stream()
                .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
                .mapToDouble(Map.Entry::getValue).max().orElse(0);
    }
}
