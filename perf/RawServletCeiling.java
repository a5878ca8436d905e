import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * The harness's reference ceiling below the service's own: the same embedded Tomcat the service runs (its jar is
 * taken from the service jar), same connector settings (virtual threads, unlimited keep-alive), one plain servlet
 * that reads what the reservation endpoint reads (buyer header, key header, the body) and answers the ceiling's
 * fixed 202. No Spring, no Jackson, no filters: the distance to the service's ceiling is what the framework costs.
 *
 *   java -cp tomcat-embed-core.jar perf/RawServletCeiling.java PORT
 */
public class RawServletCeiling {

    private static final String ID = "ceiling.0190a6b0-0000-7000-8000-000000000000";
    private static final byte[] BODY = ("{\"reservationId\":\"" + ID + "\",\"activityId\":\"ceiling\",\"status\":\"RESERVED\","
            + "\"items\":[{\"skuId\":\"unit\",\"quantity\":1}]}").getBytes(StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("raw-ceiling").toString());
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(Integer.parseInt(args[0]));
        Http11NioProtocol protocol = (Http11NioProtocol) connector.getProtocolHandler();
        protocol.setAddress(java.net.InetAddress.getLoopbackAddress());
        protocol.setExecutor(new VirtualThreadExecutor("raw-ceiling-"));
        protocol.setMaxKeepAliveRequests(-1);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "ceiling", new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                String buyer = request.getHeader("X-User-Id");
                String key = request.getHeader("Idempotency-Key");
                byte[] body = request.getInputStream().readAllBytes();
                if (buyer == null || body.length == 0 || (key != null && key.isEmpty())) {
                    response.sendError(400);
                    return;
                }
                response.setStatus(202);
                response.setHeader("Location", "/api/v1/reservations/" + ID);
                response.setContentType("application/json");
                response.setContentLength(BODY.length);
                response.getOutputStream().write(BODY);
            }

            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                response.setStatus(200);
            }
        });
        context.addServletMappingDecoded("/*", "ceiling");
        tomcat.start();
        tomcat.getServer().await();
    }
}
