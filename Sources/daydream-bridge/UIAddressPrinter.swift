import LocalHTTP

/// What `ui` prints for the page: the address with its one-time token, one line per address it
/// is reached at; off loopback, the first address other machines reach as a QR code, for a phone.
enum UIAddressPrinter {
    /// The lines for `addresses` (the token is the same on each: whichever is opened first uses it).
    static func lines(_ addresses: [ListenAddress], token: String) -> [String] {
        addresses.map { "Open http://\($0)/?token=\(token)" }
    }

    /// Prints the lines and, `withQRCode`, the QR code (or why there is none).
    static func print(_ addresses: [ListenAddress], token: String, withQRCode: Bool) {
        for line in lines(addresses, token: token) { printOut(line) }
        guard withQRCode, let phone = PageAddresses.firstForOtherMachines(addresses) else { return }
        let url = "http://\(phone)/?token=\(token)"
        switch TerminalQRCode.encode(url) {
        case .success(let code):
            printOut("On a phone, scan this for \(phone):")
            for line in code.lines { printOut(line) }
        case .failure(let problem):
            printError("Warning: no QR code for the phone: \(problem)")
        }
    }
}
