import Foundation
import JSON
import TestSupport
@testable import MacMDServer

/// A notebook whose notes link every way (Markdown, wiki, reference and image links; links to
/// notes, headings, images, PDFs, missing files; an ambiguous name), shared by the server tests
/// of links and of the preview.
enum LinkedNotebook {
    static let files = [
        "index.md": """
            # Home

            [soil](garden/soil.md#texture) [[soil]] ![[plot.png]] [[Missing]] [ref][r] [[dup]]
            [report](report.pdf) ![gone](gone.png) [guide](docs/guide.pdf)

            [r]: garden/beds.md

            """,
        "garden/soil.md": "# Soil\n\n## Texture\n",
        "garden/beds.md": "# Beds\n\n[[soil]] [[soil#Texture]] ![[plot.png|The plot]] [[Missing]] [[dup]] [[#Beds]] [[Seed list]]\n",
        "Seed list.md": "# Seeds\n",
        "img/plot.png": "png",
        "docs/guide.pdf": "pdf",
        "a/dup.md": "# Dup in a\n",
        "b/dup.md": "# Dup in b\n",
    ]

    /// A server on a fresh copy of `files` (plus `extra`), its scan finished, `index.md` open.
    static func start(_ extra: [String: String] = [:], initializationOptions: JSONValue? = nil) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(LinkedNotebook.files.merging(extra) { $1 })
        let client = LSPTestClient.started(on: fixture, capabilities: ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]]],
                                           initializationOptions: initializationOptions)
        client.open(fixture, "index.md")
        return (fixture, client)
    }
}
