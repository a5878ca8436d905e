package io.flashsale.benchmarks;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Throughput against crowd size, one line per strategy, both axes logarithmic (the strategies differ by 100x). */
final class ThroughputChart {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 620;

    /** Eight colours that stay apart on white, one per strategy number: warm for MySQL, cool for Flashsale. */
    private static final Color[] PALETTE = {new Color(0xd62728), new Color(0xff7f0e), new Color(0x8c564b),
            new Color(0x9467bd), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x1f77b4), new Color(0x2ca02c)};

    private ThroughputChart() {
    }

    /** Strategy names start with their number: a strategy keeps its colour whichever others ran. */
    private static int colourOf(String strategy) {
        int number = Character.digit(strategy.charAt(0), 10);
        return number >= 1 && number <= PALETTE.length ? number - 1 : 0;
    }

    /** Ticks at every power of the base only: 8, 16, 32, ... clients; 10, 100, 1,000, ... per second. */
    private static LogAxis logAxis(String label, double base, String format) {
        LogAxis axis = new LogAxis(label);
        axis.setBase(base);
        axis.setAutoTickUnitSelection(false);
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setMinorTickMarksVisible(true);
        axis.setNumberFormatOverride(new DecimalFormat(format));
        return axis;
    }

    static void write(String title, List<RunResult> results, Path png) {
        Map<String, XYSeries> lines = new LinkedHashMap<>();
        for (RunResult result : results) {
            lines.computeIfAbsent(result.strategy(), XYSeries::new).add(result.clients(), result.throughput());
        }
        XYSeriesCollection dataset = new XYSeriesCollection();
        lines.values().forEach(dataset::addSeries);
        JFreeChart chart = ChartFactory.createXYLineChart(title, "clients", "attempts per second", dataset,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(logAxis("clients (concurrent callers, log scale)", 2, "0"));
        plot.setRangeAxis(logAxis("attempts per second (log scale)", 10, "#,##0"));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int series = 0; series < dataset.getSeriesCount(); series++) {
            String name = dataset.getSeriesKey(series).toString();
            boolean flashsale = name.contains("Flashsale");
            renderer.setSeriesPaint(series, PALETTE[colourOf(name)]);
            renderer.setSeriesStroke(series, new BasicStroke(flashsale ? 4f : 2f));
        }
        plot.setRenderer(renderer);
        try {
            ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }
}
