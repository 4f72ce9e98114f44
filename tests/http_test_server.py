"""The HTTP server of the download tests, on 127.0.0.1 at a free port, which it prints first.
Arguments: the marker directory, then optionally a certificate and its key to serve HTTPS.

Routes: /data.bin (the body), /flaky/<key>.bin (503 twice per key, then the body), /slow.bin (headers
for 100 MiB, 64 KiB of it, then a long wait; touches <marker dir>/slow-started once sending), others 404.
"""
import http.server
import os
import ssl
import sys
import time

BODY = b"xparray download test\n" * 100
MARKERS = sys.argv[1]
flaky_counts = {}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_body(self, body):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/data.bin":
            self.send_body(BODY)
        elif self.path.startswith("/flaky/"):
            flaky_counts[self.path] = flaky_counts.get(self.path, 0) + 1
            if flaky_counts[self.path] <= 2:
                self.send_error(503)
            else:
                self.send_body(BODY)
        elif self.path == "/slow.bin":
            self.send_response(200)
            self.send_header("Content-Length", str(100 << 20))
            self.end_headers()
            self.wfile.write(b"x" * 65536)
            self.wfile.flush()
            open(os.path.join(MARKERS, "slow-started"), "w").close()
            time.sleep(120)
        else:
            self.send_error(404)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if len(sys.argv) == 4:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
