/// Escaping for text that goes into the pages of issue 17: every participant name, frame and
/// monitor message is untrusted (a scenario may name a participant `<script>`), so each one
/// passes through here before it reaches HTML or SVG.
public enum HTMLText {
    /// `text` safe inside an element or a double- or single-quoted attribute.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
