import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the CPU samples (jdk.ExecutionSample) of a JFR recording as a flame graph PNG, root at the bottom.
 *
 *   java perf/FlameGraph.java recording.jfr out.png [thread-name-prefix] [title]
 *   java -Dflamegraph.event=jdk.CPUTimeSample perf/FlameGraph.java ...   (JDK 25's CPU-time sampler, when recorded)
 *
 * Only samples of threads whose name starts with the prefix count (for example "http-nio" for request threads).
 */
public class FlameGraph {

    static final class Node {
        final String name;
        final Map<String, Node> children = new LinkedHashMap<>();
        long samples;

        Node(String name) {
            this.name = name;
        }
    }

    static final int ROW = 16, WIDTH = 1800;

    public static void main(String[] args) throws Exception {
        String prefix = args.length > 2 ? args[2] : "";
        String title = args.length > 3 ? args[3] : "CPU samples";
        Node root = new Node("all");
        int depth = 0;
        Map<String, Long> byThread = new LinkedHashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals(EVENT) || event.getStackTrace() == null) {
                continue;
            }
            var thread = event.hasField("sampledThread") ? event.getThread("sampledThread") : event.getThread();
            if (thread == null || thread.getJavaName() == null || !thread.getJavaName().startsWith(prefix)) {
                continue;
            }
            byThread.merge(threadGroup(thread.getJavaName(), thread.isVirtual()), 1L, Long::sum);
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            Node node = root;
            root.samples++;
            for (int i = frames.size() - 1; i >= 0; i--) {
                var method = frames.get(i).getMethod();
                String name = shortType(method.getType().getName()) + "." + method.getName();
                node = node.children.computeIfAbsent(name, Node::new);
                node.samples++;
            }
            depth = Math.max(depth, frames.size());
        }
        int height = (depth + 3) * ROW;
        var image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setColor(Color.BLACK);
        g.drawString(title + " (" + root.samples + " samples, threads '" + prefix + "*')", 4, 12);
        draw(g, root, 0, WIDTH, height - ROW, root.samples);
        ImageIO.write(image, "png", new File(args[1]));
        System.out.println("samples by thread (digits as #):");
        byThread.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .forEach(e -> System.out.printf("%5.1f%% %s%n", 100.0 * e.getValue() / root.samples, e.getKey()));
        System.out.println("methods by inclusive samples:");
        printTop(root);
    }

    /** Which sample event to draw: -Dflamegraph.event=jdk.CPUTimeSample for the JDK 25 CPU-time sampler. */
    static final String EVENT = System.getProperty("flamegraph.event", "jdk.ExecutionSample");

    /** A thread's name with its numbers folded, so a pool's threads count together; virtual threads as one group. */
    static String threadGroup(String name, boolean virtual) {
        String group = name.replaceAll("[0-9]+", "#");
        return virtual ? "virtual: " + (group.isEmpty() ? "(unnamed)" : group) : group;
    }

    static void draw(Graphics2D g, Node node, double x, double width, int y, long total) {
        if (width < 0.5) {
            return;
        }
        int hash = node.name.hashCode();
        boolean ours = node.name.startsWith("i.f.");
        g.setColor(ours ? new Color(80, 160 + Math.floorMod(hash, 60), 220)
                : new Color(220 + Math.floorMod(hash, 35), 90 + Math.floorMod(hash >> 8, 110), 40));
        g.fillRect((int) x, y, Math.max(1, (int) width - 1), ROW - 1);
        if (width > 40) {
            g.setColor(Color.BLACK);
            String label = node.name + " " + String.format("%.1f%%", 100.0 * node.samples / total);
            int fit = (int) (width / 6.2);
            g.drawString(label.length() > fit ? label.substring(0, Math.max(0, fit - 2)) + ".." : label, (int) x + 2, y + 12);
        }
        double childX = x;
        for (Node child : node.children.values()) {
            double childWidth = width * child.samples / node.samples;
            draw(g, child, childX, childWidth, y - ROW, total);
            childX += childWidth;
        }
    }

    /** The methods with the most samples anywhere on the stack, for the text beside the picture. */
    static void printTop(Node root) {
        Map<String, Long> inclusive = new LinkedHashMap<>();
        collect(root, inclusive, new ArrayList<>());
        inclusive.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(60).forEach(e -> System.out.printf("%5.1f%% %s%n", 100.0 * e.getValue() / root.samples, e.getKey()));
    }

    static void collect(Node node, Map<String, Long> inclusive, List<String> path) {
        for (Node child : node.children.values()) {
            if (!path.contains(child.name)) {
                inclusive.merge(child.name, child.samples, Long::sum);
            }
            path.add(child.name);
            collect(child, inclusive, path);
            path.remove(path.size() - 1);
        }
    }

    static String shortType(String type) {
        return type.replace("io.flashsale.", "i.f.").replace("org.springframework.", "o.s.")
                .replace("org.apache.", "o.a.").replace("java.util.", "j.u.");
    }
}
