// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Token transfer helpers for AuditProbe. Not compiled into artifacts.

interface IERC20Minimal {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @dev Token transfers that accept tokens returning nothing (like USDT) as well as tokens returning bool.
library SafeTransfer {
    function safeTransfer(address token, address to, uint256 value) internal {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "SafeTransfer: transfer failed");
    }

    function safeTransferFrom(address token, address from, address to, uint256 value) internal {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Minimal.transferFrom, (from, to, value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "SafeTransfer: transferFrom failed");
    }

    function safeTransferNative(address to, uint256 value) internal {
        (bool ok,) = to.call{value: value}("");
        require(ok, "SafeTransfer: native transfer failed");
    }
}
