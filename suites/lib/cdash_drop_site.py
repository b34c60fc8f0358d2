"""A stand-in for a CDash drop site on a loopback port, for the dashboard test: it stores each
upload (the request line, then the body) as OUT_DIR/request-N and answers as CDash does.
    cdash_drop_site.py PORT OUT_DIR [STATUS]    (STATUS: the HTTP status to answer, default 200)"""
import http.server
import os
import sys

out = sys.argv[2]
status = int(sys.argv[3]) if len(sys.argv) > 3 else 200


class Handler(http.server.BaseHTTPRequestHandler):
    def _take(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n)
        with open(os.path.join(out, "request-%d" % len(os.listdir(out))), "wb") as f:
            f.write((self.command + " " + self.path + "\n").encode() + body)
        self.send_response(status)
        self.send_header("Content-Type", "text/xml")
        self.end_headers()
        self.wfile.write(b'<cdash version="3.0"><status>%s</status><message></message></cdash>\n'
                         % (b"OK" if status == 200 else b"ERROR"))

    do_PUT = do_POST = _take

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
