package io.flashsale.adapter.web;

import org.apache.catalina.Container;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import java.io.IOException;
import java.io.PrintWriter;

/**
 * Tomcat's last-resort error page, for requests it refuses before the application sees them (an
 * encoded slash or NUL in the path, say): the same problem+json shape instead of an HTML page.
 */
public final class ProblemErrorReportValve extends ErrorReportValve {

    /** Replaces the host's HTML error report valve with this one, also the one the host adds when it starts. */
    public static void install(Container host) {
        if (host instanceof StandardHost standard) {
            standard.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
        }
        Pipeline pipeline = host.getPipeline();
        for (Valve valve : pipeline.getValves()) {
            if (valve instanceof ErrorReportValve) {
                pipeline.removeValve(valve);
            }
        }
        pipeline.addValve(new ProblemErrorReportValve());
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            PrintWriter writer = response.getReporter();
            if (writer != null) {
                writer.write(problemJson(status, title));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response was already on its way; nothing more to say.
        }
    }

    /** Only constants go into this text, so it needs no JSON escaping. */
    static String problemJson(int status, String title) {
        ProblemCode code = ProblemCode.forStatus(status);
        String errors = code == ProblemCode.VALIDATION
                ? ",\"errors\":[{\"field\":\"request\",\"message\":\"is not a well-formed HTTP request\"}]" : "";
        return "{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status
                + ",\"code\":\"" + code.name() + "\"" + errors + "}";
    }
}
