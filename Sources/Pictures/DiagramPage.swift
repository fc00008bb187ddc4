/// A sequence diagram as one self-contained HTML page (issue 17): inline SVG, CSS and a short
/// script, nothing fetched. Keys switch lifelines and event families on and off and zoom; the
/// script records when it finished (`body[data-render-ms]`) so a browser test can time it.
/// The same diagram always gives the same bytes.
public enum DiagramPage {
    public static func html(_ diagram: SequenceDiagram) -> String {
        let layout = DiagramLayout(diagram)
        let svg = DiagramSVG(layout: layout)
        var out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        out += "<title>\(HTMLText.escape(diagram.title))</title><style>\(style(lifelineCount: diagram.lifelines.count))</style></head>\n<body>"
        out += "<header><h1>\(HTMLText.escape(diagram.title))</h1>"
        out += diagram.notes.map { "<p class=\"note\">\(HTMLText.escape($0))</p>" }.joined()
        out += summary(diagram) + controls(diagram) + "</header>\n"
        out += "<div id=\"view\"><div class=\"sticky\">\(svg.header())</div>\(svg.body())</div>\n"
        out += "<script>\(script(lifelineCount: diagram.lifelines.count))</script></body></html>\n"
        return out
    }

    /// What the run found: each violation with its monitor's message, or that none broke.
    private static func summary(_ diagram: SequenceDiagram) -> String {
        guard !diagram.violations.isEmpty else { return "<p class=\"verdict ok\">invariants: all hold</p>" }
        let items = diagram.violations.map { violation in
            let action = violation.actionNumber.map { " at action #\($0)" } ?? ""
            return "<li>\(HTMLText.escape("\(violation.invariant) [\(violation.rules.joined(separator: ", "))] \(violation.time) \(violation.lifeline)\(action): \(violation.message)"))</li>"
        }
        return "<div class=\"verdict broken\"><strong>VIOLATION</strong> (key n jumps to it)<ul>\(items.joined())</ul></div>"
    }

    /// Buttons for every toggle (each names its key) and the list of keys.
    private static func controls(_ diagram: SequenceDiagram) -> String {
        var out = "<div class=\"controls\"><span>participants:</span>"
        for (index, name) in diagram.lifelines.enumerated() {
            let key = index < 10 ? " [\(index)]" : ""
            out += "<button type=\"button\" data-toggle=\"hide-p\(index)\" aria-pressed=\"true\">\(HTMLText.escape(name))\(key)</button>"
        }
        out += "<br><span>events:</span>"
        for family in SequenceDiagram.Family.allCases {
            out += "<button type=\"button\" data-toggle=\"hide-\(family.rawValue)\" aria-pressed=\"true\" class=\"\(family.rawValue)\">\(family.rawValue) [\(family.key)]</button>"
        }
        out += "</div><p class=\"keys\">Keys: <kbd>0</kbd>-<kbd>9</kbd> show/hide a participant (0 is the stage service); "
        out += SequenceDiagram.Family.allCases.map { "<kbd>\($0.key)</kbd> \($0.rawValue)" }.joined(separator: ", ")
        out += "; <kbd>a</kbd> show all; <kbd>+</kbd>/<kbd>-</kbd> zoom, <kbd>z</kbd> 100%; <kbd>n</kbd> next violation. "
        out += "Hover an arrow for the frame's JSON, a mark for the event. Zoom: <span id=\"zoom\">100%</span></p>"
        return out
    }

    private static func style(lifelineCount: Int) -> String {
        var css = """
            body{font:13px system-ui,sans-serif;margin:0;color:#222;height:100vh;display:flex;flex-direction:column}
            header{padding:8px 12px;border-bottom:1px solid #ccc}.verdict ul{max-height:6em;overflow:auto;margin:4px 0}
            h1{font-size:16px;margin:0 0 4px}.note{margin:2px 0;color:#555;font-family:monospace}
            .verdict.ok{color:#176b2c}.verdict.broken{background:#fde8e8;border:1px solid #c33;padding:4px 8px}
            .controls span{display:inline-block;width:90px;color:#555}button{margin:2px;font:12px monospace}
            button[aria-pressed=false]{opacity:.4;text-decoration:line-through}.keys{color:#555;margin:4px 0 0}
            #view{overflow:auto;flex:1}svg{overflow:visible}.sticky{position:sticky;top:0;background:#fff;z-index:1}
            svg text{font:11px monospace}.lifeline-name{text-anchor:middle;font-weight:bold}
            .lifeline line{stroke:#999;stroke-dasharray:4 3}.time{fill:#777}
            .arrow line{stroke:#1f5fa8;stroke-width:1.5}.arrow text{text-anchor:middle;fill:#1f5fa8}
            .arrow.lost line{stroke:#b33;stroke-dasharray:5 4}.arrow.lost text{fill:#b33}.x{stroke:#b33;stroke-width:2}
            marker path{fill:#1f5fa8}.mark circle{fill:#6a4}.mark.renderer circle{fill:#2a8}.mark.subscriber circle{fill:#a6c}
            .mark.strategy circle{fill:#c90}.mark.host circle{fill:#333}.mark.service circle{fill:#58c}.mark.error circle{fill:#d22}
            .band rect{fill:#f3c969;opacity:.3}.band.outage rect{fill:#999}.violation rect{fill:#f33;opacity:.25}
            .violation text{fill:#b00;font-weight:bold}.flagged text{font-weight:bold;fill:#b00}
            """
        css += SequenceDiagram.Family.allCases.map { ".hide-\($0.rawValue) .\($0.rawValue)" }.joined(separator: ",") + "{display:none}"
        css += (0..<lifelineCount).map { ".hide-p\($0) .p\($0)" }.joined(separator: ",") + "{display:none}"
        return css
    }

    /// The page's script: key and button toggles, zoom, jump to a violation, and the render time.
    private static func script(lifelineCount: Int) -> String {
        let participantKeys = (0..<min(lifelineCount, 10)).map { "\"\($0)\":\"hide-p\($0)\"" }
        let familyKeys = SequenceDiagram.Family.allCases.map { "\"\($0.key)\":\"hide-\($0.rawValue)\"" }
        return """
            (function(){
            var view=document.getElementById("view"),svgs=view.querySelectorAll("svg"),zoom=1,next=0;
            var sizes=Array.prototype.map.call(svgs,function(s){return [+s.getAttribute("width"),+s.getAttribute("height")];});
            var keys={\((participantKeys + familyKeys).joined(separator: ","))};
            var buttons=document.querySelectorAll("[data-toggle]");
            function sync(){buttons.forEach(function(b){b.setAttribute("aria-pressed",view.classList.contains(b.dataset.toggle)?"false":"true");});}
            function toggle(c){view.classList.toggle(c);sync();}
            function setZoom(z){zoom=Math.min(8,Math.max(0.125,z));svgs.forEach(function(s,i){s.style.width=sizes[i][0]*zoom+"px";s.style.height=sizes[i][1]*zoom+"px";});
            document.getElementById("zoom").textContent=Math.round(zoom*100)+"%";}
            function nextViolation(){var v=view.querySelectorAll(".violation");if(!v.length)return;v[next%v.length].scrollIntoView({block:"center"});next++;}
            buttons.forEach(function(b){b.addEventListener("click",function(){toggle(b.dataset.toggle);});});
            document.addEventListener("keydown",function(e){if(e.ctrlKey||e.metaKey||e.altKey)return;var k=e.key;
            if(keys[k])toggle(keys[k]);else if(k==="+"||k==="=")setZoom(zoom*1.25);else if(k==="-")setZoom(zoom/1.25);
            else if(k==="z")setZoom(1);else if(k==="n")nextViolation();else if(k==="a"){view.className="";sync();}else return;e.preventDefault();});
            view.getBoundingClientRect();
            document.body.setAttribute("data-render-ms",performance.now().toFixed(1));
            })();
            """
    }
}
