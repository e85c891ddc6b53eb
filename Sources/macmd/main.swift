import Foundation
FileHandle.standardError.write("macmd: not yet implemented\n".data(using: .utf8)!)
exit(2)
