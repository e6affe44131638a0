import HostCore

HostProgram.main(CommandLine.arguments)
