package io.flashsale.acceptance.steps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a buyer asks for in one request, as the scenarios say it: "1 console and 2 controllers". */
record Basket(List<Line> lines) {

    record Line(String skuId, int quantity) {
    }

    Basket {
        lines = List.copyOf(lines);
    }

    static Basket parse(String text) {
        var lines = new ArrayList<Line>();
        for (String part : text.split(" and ")) {
            String[] words = part.trim().split(" ");
            lines.add(new Line(singular(words[1]), Integer.parseInt(words[0])));
        }
        return new Basket(lines);
    }

    /** Product names in the features are singular nouns without a final "s"; "2 tickets" means SKU "ticket". */
    static String singular(String word) {
        return word.endsWith("s") ? word.substring(0, word.length() - 1) : word;
    }

    List<Map<String, Object>> items() {
        return lines.stream().<Map<String, Object>>map(line -> {
            var item = new LinkedHashMap<String, Object>();
            item.put("skuId", line.skuId());
            item.put("quantity", line.quantity());
            return item;
        }).toList();
    }

    Map<String, Object> request() {
        return Map.of("items", items());
    }

    Map<String, Object> request(String requestId) {
        return Map.of("requestId", requestId, "items", items());
    }
}
